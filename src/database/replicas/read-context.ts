import { AsyncLocalStorage } from 'node:async_hooks';
import type { Replica } from './replica-set';

/** Where a request's reads go: set for GET requests when replicas are configured. */
export interface ReadContext {
  /** The replica to read from; undefined once the request must read the primary. */
  replica?: Replica;
  /**
   * Whether the request has written (a GET can: a just-in-time identity, a
   * sign-in's lastLogin, an account linked by the provider's callback).
   */
  wrote?: boolean;
}

export const readContext = new AsyncLocalStorage<ReadContext>();
