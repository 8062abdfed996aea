import type { Fetch } from './transport';

/** A GET answer kept to revalidate: its tag, and what to answer on 304. */
interface Stored {
  /** The path it is of: a write there makes it old. */
  path: string;
  etag: string;
  body: ArrayBuffer;
  headers: [string, string][];
}

const WRITES = new Set(['PUT', 'PATCH', 'DELETE']);

/** Answers are kept per caller: two tokens may see two views of a URL. */
const callerOf = (request: Request) =>
  request.headers.get('Authorization') ?? '';

/**
 * The ETags a client has seen: whole GET answers by URL, to send
 * `If-None-Match` and answer a 304 from, and the last tag of every path,
 * to send as `If-Match` with a write of it. At most `maxEntries` of each
 * are kept, the least recently used dropped first.
 */
export class EtagCache {
  private readonly answers = new Map<string, Stored>();
  private readonly tags = new Map<string, string>();

  constructor(private readonly maxEntries = 500) {}

  /** Forgets everything; the next GET of each URL is a whole one. */
  clear(): void {
    this.answers.clear();
    this.tags.clear();
  }

  /** `fetch` with revalidation of GETs and `If-Match` on writes. */
  wrap(inner: Fetch): Fetch {
    return (request) =>
      request.method === 'GET'
        ? this.get(inner, request)
        : WRITES.has(request.method)
          ? this.write(inner, request)
          : inner(request);
  }

  private async get(inner: Fetch, request: Request): Promise<Response> {
    const caller = callerOf(request);
    const key = `${caller} ${request.url}`;
    const stored = this.answers.get(key);
    if (stored && !request.headers.has('If-None-Match'))
      request.headers.set('If-None-Match', stored.etag);
    const response = await inner(request);
    if (response.status === 304 && stored) {
      this.remember(this.answers, key, stored);
      const headers = new Headers(stored.headers);
      // The 304's own headers are the current ones (its RateLimit-*, its date).
      response.headers.forEach((value, name) => headers.set(name, value));
      return new Response(stored.body.slice(0), { status: 200, headers });
    }
    const etag = response.headers.get('ETag');
    if (response.ok && etag) {
      const path = pathKey(caller, request.url);
      this.remember(this.tags, path, etag);
      if (!/no-store/i.test(response.headers.get('Cache-Control') ?? ''))
        this.remember(this.answers, key, {
          path,
          etag,
          body: await response.clone().arrayBuffer(),
          headers: [...response.headers],
        });
    }
    return response;
  }

  private async write(inner: Fetch, request: Request): Promise<Response> {
    const caller = callerOf(request);
    const path = pathKey(caller, request.url);
    const seen = this.tags.get(path);
    if (seen && !request.headers.has('If-Match'))
      request.headers.set('If-Match', seen);
    const response = await inner(request);
    if (!response.ok) return response;
    // What was kept of this path is another version now.
    for (const [key, stored] of this.answers)
      if (stored.path === path) this.answers.delete(key);
    const etag = response.headers.get('ETag');
    if (etag && request.method !== 'DELETE')
      this.remember(this.tags, path, etag);
    else this.tags.delete(path);
    return response;
  }

  /** Keeps `value` as the most recently used, dropping the least if over the bound. */
  private remember<T>(map: Map<string, T>, key: string, value: T) {
    map.delete(key);
    map.set(key, value);
    if (map.size > this.maxEntries) map.delete(map.keys().next().value!);
  }
}

function pathKey(caller: string, url: string): string {
  const { origin, pathname } = new URL(url);
  return `${caller} ${origin}${pathname}`;
}
