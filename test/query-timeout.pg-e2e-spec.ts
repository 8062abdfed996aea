import { API, example, TOKENS } from './support/example';
import { databaseUrl, withClient } from './support/postgres-admin';
import { useTestApp } from './support/test-app';

// PostgreSQL only (the embedded database cannot stop a statement it runs):
// a query past DATABASE_QUERY_TIMEOUT_MS is stopped by the server itself.
describe('a query past DATABASE_QUERY_TIMEOUT_MS', () => {
  const t = useTestApp({
    tenants: [example()],
    config: { databaseQueryTimeoutMs: 500 },
  });
  let name: string;

  beforeAll(() => {
    name = new URL(
      t.database.description.replace(/^PostgreSQL at /, 'postgresql://'),
    ).pathname.slice(1);
  });

  it('is stopped in PostgreSQL and answered 503, with the instance still ready', async () => {
    // A session of the test's own holds the identity table: every query of
    // the service that reads it waits, as a slow query would.
    await withClient(async (locker) => {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE identity IN ACCESS EXCLUSIVE MODE');
      try {
        const res = await t.as(TOKENS.ada).get(API);
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toStrictEqual({
          type: 'urn:problem:identity:query-timeout',
          title: 'Service unavailable',
          status: 503,
          detail:
            'The database took too long to answer this request and stopped it; retry shortly, or ask for less.',
          instance: API,
        });
        // Nothing of the service is still running or waiting once it answered.
        const { rows } = await locker.query<{ query: string }>(
          `SELECT query FROM pg_stat_activity
            WHERE datname = $1 AND pid <> pg_backend_pid() AND state = 'active'`,
          [name],
        );
        expect(rows).toStrictEqual([]);
        await t.http().get('/health/ready').expect(200);
      } finally {
        await locker.query('ROLLBACK');
      }
    }, databaseUrl(name));
    await t.as(TOKENS.ada).get(API).expect(200);
  });
});
