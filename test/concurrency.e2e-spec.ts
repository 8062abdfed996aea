import { connect } from 'node:net';
import { API, example, TOKENS } from './support/example';
import { withTestApp } from './support/test-app';

describe('concurrency and slow clients', () => {
  it('serves reads while the tenant is replaced, and ends with exactly the file', async () => {
    const options = { tenants: [example()], config: { rateLimit: 1_000_000 } };
    await withTestApp(options, async (t) => {
      const file = example();
      file.identities[0].displayName = 'Ada, replaced';
      const reads = Array.from({ length: 60 }, (_, i) =>
        t
          .as(TOKENS.ada)
          .get(
            `${API}${['', '/friends', '/roles', '/accounts', '/mary'][i % 5]}`,
          ),
      );
      const replaces = [1, 2, 3].map(() =>
        t.tenants.importTenant(structuredClone(file), { replace: true }),
      );
      const [answers] = await Promise.all([
        Promise.all(reads),
        Promise.all(replaces),
      ]);
      for (const answer of answers) expect(answer.status).toBe(200);
      const ada = await t.as(TOKENS.ada).get(API).expect(200);
      expect(ada.body.displayName).toBe('Ada, replaced');
      const exported = (await t.tenants.exportTenant('example')) as {
        identities: unknown[];
      };
      expect(exported.identities).toHaveLength(file.identities.length);
    });
  });

  it('closes a connection whose headers trickle in slower than HTTP_HEADERS_TIMEOUT_MS', async () => {
    const config = { headersTimeoutMs: 1000, requestTimeoutMs: 2000 };
    await withTestApp({ config }, async (t) => {
      const socket = connect(await t.listen(), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
      const drip = setInterval(
        () => socket.writable && socket.write('X-Slow: a\r\n'),
        300,
      );
      const started = Date.now();
      await new Promise((done) => socket.on('close', done));
      clearInterval(drip);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"type":"urn:problem:identity:request-timeout"');
    });
  });
});
