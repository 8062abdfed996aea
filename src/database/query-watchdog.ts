import type { Pool, PoolClient } from 'pg';

/** The message of a query given up on, as `pg`'s own read timeout words it. */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

/** When a connection's running query was first seen running. */
const SEEN = Symbol('query seen running at');

const ignore = () => undefined;

type Watched = PoolClient & {
  /** `pg`'s query on the wire, if any (an internal field: test/query-watchdog.pg-e2e-spec.ts fails if it goes). */
  _activeQuery?: { [SEEN]?: number } | null;
  connection?: { stream?: { destroy(error?: Error): void } };
};

/**
 * Gives up on a query the server has not answered within `limitMs`: the
 * connection is closed with QUERY_READ_TIMEOUT, so its query fails with
 * that error and the pool drops it (a server that can no longer answer at
 * all — a network that swallows packets, a host that stalled — is not
 * waited on for TCP's minutes).
 *
 * It is what `pg`'s `query_timeout` does, without its cost: that option
 * gives each query a timer and wraps the query's callback in a new closure
 * stored on the query, and V8 keeps such a closure — and with it the query,
 * its rows and the request that awaits them — alive through the young
 * generation's collections until a full one (docs/benchmark.md, "What
 * survives a request"). Here one timer per pool looks at each connection's
 * running query every `limitMs / 10` (at most a second), marking a query
 * with the time it was first seen: a query is given up on between
 * `limitMs` and `limitMs` plus two looks after it was sent.
 */
export function watchQueries(pool: Pool, limitMs: number): void {
  const clients = new Set<Watched>();
  pool.on('connect', (client) => {
    clients.add(client as Watched);
    // The closed connection's error reaches its query through `pg`; a
    // connection lent out has no listener of its own for the event itself.
    client.on('error', ignore);
  });
  pool.on('remove', (client) => clients.delete(client as Watched));
  const everyMs = Math.max(10, Math.min(1000, Math.floor(limitMs / 10)));
  const timer = setInterval(() => {
    if (pool.ended) {
      clearInterval(timer);
      return;
    }
    const now = Date.now();
    for (const client of clients) {
      const query = client._activeQuery;
      if (!query) continue;
      const seen = query[SEEN];
      if (seen === undefined) query[SEEN] = now;
      else if (now - seen >= limitMs)
        client.connection?.stream?.destroy(new Error(QUERY_READ_TIMEOUT));
    }
  }, everyMs);
  timer.unref();
}
