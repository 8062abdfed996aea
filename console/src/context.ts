import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from './api';

export const ApiContext = createContext<Api | undefined>(undefined);

/** The signed-in tenant's API; pages are only shown while one is. */
export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside the signed-in console');
  return api;
}
