import { API, example, TOKENS } from './support/example';
import { LogLine } from './support/log-recorder';
import { ADMIN_URL } from './support/postgres-admin';
import { TcpProxy } from './support/tcp-proxy';
import { useTestApp } from './support/test-app';

// PostgreSQL only: the service reaches the database through a proxy the test
// controls. It cuts the proxy (connections dropped, new ones refused) or
// blackholes it (nothing forwarded, like a dead network) with requests in
// flight, keeps it so for a while, then restores it.
describe.each(['cut', 'blackhole'] as const)(
  'a database outage (%s)',
  (failure) => {
    const admin = new URL(ADMIN_URL);
    const proxy = new TcpProxy(admin.hostname, Number(admin.port || 5432));
    beforeAll(() => proxy.start());
    // Restored before the service closes, stopped after.
    afterAll(() => proxy.restore());
    const t = useTestApp(() => ({
      tenants: [example()],
      config: {
        databaseConnectTimeoutMs: 1000,
        databaseQueryTimeoutMs: 2000,
        rateLimit: 1_000_000,
      },
      viaPort: proxy.port,
    }));
    afterAll(() => proxy.stop());
    let logs: LogLine[];
    beforeAll(() => {
      logs = t.recordLogs();
    });

    const timed = async (
      request: PromiseLike<{
        status: number;
        headers: Record<string, string>;
        body: any;
      }>,
    ) => {
      const started = Date.now();
      const res = await request;
      return { res, ms: Date.now() - started };
    };

    it('answers 503 within a bounded time, stays alive, and recovers by itself', async () => {
      await t.as(TOKENS.ada).get(API).expect(200);
      const inFlight = Array.from({ length: 10 }, (_, i) =>
        timed(
          t
            .as(TOKENS.ada)
            .get(
              `${API}${['', '/friends', '/roles', '/accounts', '/mary'][i % 5]}`,
            ),
        ),
      );
      const writes = Array.from({ length: 3 }, (_, i) =>
        timed(t.as(TOKENS.mary).put(API, { displayName: `During ${i}` })),
      );
      proxy[failure]();
      for (const { res, ms } of await Promise.all([...inFlight, ...writes])) {
        expect([200, 503]).toContain(res.status);
        expect(ms).toBeLessThan(8000);
      }
      const during = await timed(t.as(TOKENS.ada).get(API));
      expect(during.res.status).toBe(503);
      expect(during.res.headers['retry-after']).toBe('5');
      expect(during.res.body.type).toBe(
        'urn:problem:identity:database-unavailable',
      );
      expect(during.ms).toBeLessThan(5000);
      await t.http().get('/health/ready').expect(503);
      expect(logs).toContainEqual({
        level: 'error',
        message: expect.stringMatching(
          /^Health Check has failed! .*"database unreachable"/,
        ),
      });
      await t.http().get('/health/live').expect(200);

      proxy.restore();
      const restored = Date.now();
      let status = 0;
      while (Date.now() - restored < 5000 && status !== 200) {
        status = (await t.as(TOKENS.ada).get(API)).status;
        if (status !== 200)
          await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
      await t.http().get('/health/ready').expect(200);

      // No write is half applied: Mary's name is the last acknowledged write, or
      // one of the unacknowledged ones that committed before the cut, or the
      // original; never anything else.
      const mary = await t.as(TOKENS.mary).get(API).expect(200);
      expect(['Mary Somerville', 'During 0', 'During 1', 'During 2']).toContain(
        mary.body.displayName,
      );
    });
  },
);
