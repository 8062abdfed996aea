import { API, example, TOKENS } from './support/example';
import { LogLine } from './support/log-recorder';
import { withClient } from './support/postgres-admin';
import { useTestApp } from './support/test-app';

// PostgreSQL only: the database is taken away under the running service by
// renaming it (after cutting its connections), then given back.
describe('while the database is unreachable', () => {
  const t = useTestApp({ tenants: [example()] });
  let name: string;
  let logs: LogLine[];
  const admin = (sql: string) => withClient((c) => c.query(sql));

  beforeAll(() => {
    logs = t.recordLogs();
    name = new URL(
      t.database.description.replace(/^PostgreSQL at /, 'postgresql://'),
    ).pathname.slice(1);
  });

  it('answers 503 with Retry-After, reports not ready but alive, and recovers without a restart', async () => {
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
    );
    try {
      const res = await t.as(TOKENS.ada).get(API);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toStrictEqual({
        type: 'urn:problem:identity:database-unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: 'The database cannot be reached; retry shortly.',
        instance: API,
      });
      const ready = await t.http().get('/health/ready').expect(503);
      expect(ready.body).toMatchObject({
        status: 'error',
        error: {
          database: { status: 'down', message: 'database unreachable' },
        },
      });
      expect(logs).toContainEqual({
        level: 'error',
        message: expect.stringMatching(
          /^Health Check has failed! .*"database unreachable"/,
        ),
      });
      await t.http().get('/health/live').expect(200);
    } finally {
      await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    await t.http().get('/health/ready').expect(200);
    await t.as(TOKENS.ada).get(API).expect(200);
  });
});
