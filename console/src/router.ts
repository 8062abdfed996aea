// Hash routing (`#/identities/bob`): every page has its own address, the
// service needs no fallback route, and reloading keeps the page.
import { useEffect, useState } from 'preact/hooks';

/** What every page is given: the route's segments after the page's own name. */
export interface PageProps {
  path: string[];
}

/** The current route as decoded segments: `#/identities/bob` → ['identities', 'bob']. */
export function currentRoute(): string[] {
  const hash = location.hash.replace(/^#\/?/, '');
  return hash
    .split('/')
    .filter((part) => part !== '')
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
}

/** The address of a route: `href('identities', 'bob')` → `#/identities/bob`. */
export const href = (...segments: string[]) =>
  `#/${segments.map((s) => encodeURIComponent(s)).join('/')}`;

export const navigate = (...segments: string[]) => {
  location.hash = href(...segments);
};

export function useRoute(): string[] {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
