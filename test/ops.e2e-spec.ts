import { readMigrations } from '../src/database/migrator';
import { randomBytes } from 'node:crypto';
import { API, example, TOKENS } from './support/example';
import { logLines, withServer } from './support/server';
import { TestApp, useTestApp, withTestApp } from './support/test-app';

describe('health and metrics', () => {
  const t = useTestApp({ tenants: [example()] });

  it('answers liveness and readiness without a token', async () => {
    const live = await t.http().get('/health/live').expect(200);
    expect(live.body).toStrictEqual({
      status: 'ok',
      info: {},
      error: {},
      details: {},
    });
    const ready = await t.http().get('/health/ready').expect(200);
    expect(ready.body).toStrictEqual({
      status: 'ok',
      info: { database: { status: 'up', migrations: readMigrations().length } },
      error: {},
      details: {
        database: { status: 'up', migrations: readMigrations().length },
      },
    });
    expect(ready.headers['ratelimit-limit']).toBeUndefined();
  });

  it('counts requests by route template, never by raw path or token', async () => {
    await t.http().get(`${API}/mary?access_token=${TOKENS.ada}`).expect(200);
    await t.as(TOKENS.ada).get(`${API}/secret-looking-id`).expect(404);
    const res = await t
      .http()
      .get('/metrics')
      .set(
        'Accept',
        'application/openmetrics-text; version=1.0.0, text/plain;q=0.5',
      )
      .expect(200);
    expect(res.headers['content-type']).toBe(
      'text/plain; version=0.0.4; charset=utf-8',
    );
    expect(res.text).toMatch(
      /^http_requests_total\{method="GET",route="\/:tenant\/api\/identity\/v1\/:id",status="200"\} [1-9]/m,
    );
    expect(res.text).toMatch(
      /^http_requests_total\{method="GET",route="\/:tenant\/api\/identity\/v1\/:id",status="404"\} [1-9]/m,
    );
    expect(res.text).toMatch(
      /^http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/:tenant\/api\/identity\/v1\/:id",status="200"\} [1-9]/m,
    );
    expect(res.text).toMatch(/^db_pool_connections\{state="total"\} \d+/m);
    expect(res.text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(res.text).not.toContain('secret-looking-id');
    expect(res.text).not.toContain(TOKENS.ada);
    expect(res.text).not.toContain('/example/');
  });

  it('sends the security headers of a JSON API and no CORS headers by default', async () => {
    const res = await t
      .as(TOKENS.ada)
      .get(API)
      .set('Origin', 'https://evil.example')
      .expect(200);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS when configured', () => {
  const t = useTestApp({
    tenants: [example()],
    config: { corsOrigins: ['https://app.example'] },
  });

  it('allows the configured origins only', async () => {
    const ok = await t
      .as(TOKENS.ada)
      .get(API)
      .set('Origin', 'https://app.example')
      .expect(200);
    expect(ok.headers['access-control-allow-origin']).toBe(
      'https://app.example',
    );
    expect(ok.headers['access-control-expose-headers']).toContain('ETag');
    const other = await t
      .as(TOKENS.ada)
      .get(API)
      .set('Origin', 'https://evil.example')
      .expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('rate limits', () => {
  const t = useTestApp({
    tenants: [example()],
    config: { rateLimit: 3, rateLimitWindowSeconds: 60 },
  });

  it('counts per token, sends RateLimit-* headers, then answers 429 with Retry-After', async () => {
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const res = await t
        .as(TOKENS.ada)
        .get(`${API}${['', '/roles', '/friends'][i]}`)
        .expect(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      remaining.push(res.headers['ratelimit-remaining']);
    }
    expect(remaining).toStrictEqual(['2', '1', '0']);
    const refused = await t.as(TOKENS.ada).get(`${API}/accounts`).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-limit']).toBe('3');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-reset']).toBe(
      refused.headers['retry-after'],
    );
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.body).toMatchObject({
      type: 'urn:problem:identity:too-many-requests',
      status: 429,
      instance: `${API}/accounts`,
    });
    await t.http().get(`${API}?access_token=${TOKENS.ada}`).expect(429);
    await t.as(TOKENS.mary).get(API).expect(200);
    await t.http().get('/health/live').expect(200);
    await t.http().get('/metrics').expect(200);
  });
});

describe('behind a gateway', () => {
  const anonymous = (t: TestApp, forwardedFor: string) =>
    t
      .http()
      .get('/nowhere/api/identity/v1')
      .set('X-Forwarded-For', forwardedFor);

  it('trusts X-Forwarded-For only when TRUST_PROXY says so', async () => {
    const trust = { rateLimit: 1, trustProxy: true };
    await withTestApp({ config: trust }, async (trusting) => {
      await anonymous(trusting, '203.0.113.1').expect(401);
      await anonymous(trusting, '203.0.113.2').expect(401);
      await anonymous(trusting, '203.0.113.1').expect(429);
    });
    await withTestApp({ config: { rateLimit: 1 } }, async (direct) => {
      await anonymous(direct, '203.0.113.1').expect(401);
      await anonymous(direct, '203.0.113.2').expect(429);
    });
  });

  it('sets the server timeouts from the configuration', async () => {
    const config = {
      requestTimeoutMs: 12_000,
      headersTimeoutMs: 4_000,
      keepAliveTimeoutMs: 61_000,
    };
    await withTestApp({ config }, async (t) => {
      const server = t.app.getHttpServer();
      expect([
        server.requestTimeout,
        server.headersTimeout,
        server.keepAliveTimeout,
      ]).toStrictEqual([12_000, 4_000, 61_000]);
    });
  });
});

describe('the running server', () => {
  it('logs one JSON line per request, with no secret in it', async () => {
    const secret = `log-${randomBytes(16).toString('hex')}`;
    const server = await withServer(
      'identity-logs-',
      {},
      async (server, url) => {
        const base = `${url}/demo/api/identity/v1`;
        await fetch(`${base}?access_token=demo-alice-access-token`);
        await fetch(`${base}/bob`, {
          headers: {
            Authorization: 'Bearer demo-alice-access-token',
            'X-Request-Id': 'trace-42',
          },
        });
        await fetch(`${base}?access_token=${secret}`);
        await fetch(base, { headers: { Authorization: `Bearer ${secret}` } });
        // Log lines are written asynchronously and may still be on their way
        // when the last answer arrives; stopping the server then could lose them.
        await server.outputLines(/"msg":"request completed"/, 4);
      },
    );
    const lines = logLines(server.output());
    const bob = lines.find((line) => line.req?.id === 'trace-42');
    expect(bob).toMatchObject({
      level: 30,
      req: { id: 'trace-42', method: 'GET', url: '/demo/api/identity/v1/bob' },
      tenant: 'demo',
      route: '/:tenant/api/identity/v1/:id',
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(
      lines.filter(
        (line) =>
          line.req?.url === '/demo/api/identity/v1?access_token=[REDACTED]',
      ),
    ).toHaveLength(2);
    expect(server.output()).not.toContain(secret);
    // The demo banner prints the demo tokens on purpose; the logs never do.
    expect(
      lines.filter((line) =>
        JSON.stringify(line).includes('demo-alice-access-token'),
      ),
    ).toStrictEqual([]);
  });

  it('finishes requests in flight on SIGTERM, then exits cleanly', async () => {
    await withServer('identity-stop-', {}, async (server, url) => {
      const base = `${url}/demo/api/identity/v1`;
      const inFlight = Array.from({ length: 20 }, () =>
        fetch(`${base}/friends`, {
          headers: { Authorization: 'Bearer demo-alice-access-token' },
        }).then((r) => r.status),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      await server.stop();
      const statuses = await Promise.allSettled(inFlight);
      for (const status of statuses)
        if (status.status === 'fulfilled') expect(status.value).toBe(200);
      // Nest closes everything, then ends the process with the signal it got.
      expect(await server.ended()).toBe('SIGTERM');
      await expect(fetch(base)).rejects.toThrow();
    });
  });
});
