import type { Fetch } from './transport';

export interface RetryOptions {
  /** The longest the client waits in all for one request; default 10 s. */
  maxWaitMs?: number;
  /** How many times one request is sent again at most; default 3. */
  maxRetries?: number;
}

/**
 * 503 is retried only where sending twice is harmless: a 429 was refused
 * before anything ran, a 503 of a POST or PATCH may come after its work.
 */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** `Retry-After` in milliseconds: seconds, or an HTTP date; undefined otherwise. */
export function retryAfterMs(
  value: string | null,
  now = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise((done, fail) => {
    const abort = () => {
      clearTimeout(timer);
      fail(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      done();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * `fetch` that sends a request again after a 429, or a 503 of an idempotent
 * method, once `Retry-After` has passed, as long as the waits add up to at
 * most `maxWaitMs`; an answer without `Retry-After`, or one whose wait does
 * not fit, is returned as it is (and becomes a ProblemError).
 */
export function retrying(
  inner: Fetch,
  { maxWaitMs = 10_000, maxRetries = 3 }: RetryOptions = {},
): Fetch {
  return async (request) => {
    let waited = 0;
    for (let retries = 0; ; retries++) {
      // A body can be read once: every attempt sends a copy.
      const response = await inner(request.clone());
      const retryable =
        response.status === 429 ||
        (response.status === 503 && IDEMPOTENT.has(request.method));
      const wait = retryable
        ? retryAfterMs(response.headers.get('Retry-After'))
        : undefined;
      if (
        wait === undefined ||
        retries >= maxRetries ||
        waited + wait > maxWaitMs
      )
        return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
      waited += wait;
    }
  };
}
