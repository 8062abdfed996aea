import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type Server as HttpServer,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  identity,
  provider as providerEntry,
  tenantFile,
  token,
} from './support/factories';
import { LocalOAuthServer } from './support/oauth2-server';
import { logLines, type Server, useServers } from './support/server';
import { until } from './support/until';

// The built service with tracing on, exporting OTLP/JSON to a collector on
// loopback; PostgreSQL for the statements' spans and Redis for the rate
// limiter's. Each request carries a traceparent of the test's own, as a
// gateway would send it: the trace id is how the test finds its spans.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const ANN = token({ identityId: 'ann' });
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const RETURN_URL = 'https://app.example.test/linked';
const FILE = tenantFile({
  accountProviders: [providerEntry('old')],
  identities: [
    identity('ann', { displayName: 'Ann' }),
    identity('bea', {
      accounts: [
        { accountId: 'bea-old', accountProviderId: 'old', issuedUserId: 'b1' },
      ],
    }),
  ],
  tokens: [ANN, ADMIN],
  linkReturnUrls: [RETURN_URL],
});
const TENANT = FILE.tenant.id;
const SPAN_KIND = { server: 2, client: 3 };

/** A span as an OTLP/JSON export carries it, its attributes as an object. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
}

type OtlpValue = Record<string, unknown> & {
  arrayValue?: { values?: OtlpValue[] };
};
const valueOf = (value: OtlpValue): unknown =>
  value.arrayValue
    ? (value.arrayValue.values ?? []).map(valueOf)
    : 'intValue' in value
      ? Number(value.intValue)
      : Object.values(value)[0];

/** An OTLP/HTTP collector on loopback that keeps every span it is sent. */
class SpanCollector {
  readonly spans: Span[] = [];
  private server?: HttpServer;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') this.keep(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) =>
      this.server!.listen(0, '127.0.0.1', done),
    );
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((done) => {
      this.server!.close(() => done());
      this.server!.closeAllConnections();
    });
  }

  /** The spans of one trace. */
  trace(traceId: string): Span[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  private keep(body: Buffer): void {
    const { resourceSpans = [] } = JSON.parse(body.toString('utf8'));
    for (const { scopeSpans = [] } of resourceSpans)
      for (const { scope, spans = [] } of scopeSpans)
        for (const span of spans)
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            scope: scope.name,
            attributes: Object.fromEntries(
              (span.attributes ?? []).map(
                (a: { key: string; value: OtlpValue }) => [
                  a.key,
                  valueOf(a.value),
                ],
              ),
            ),
          });
  }
}

/** A webhook endpoint that keeps each request's headers. */
class HeaderReceiver {
  readonly requests: IncomingHttpHeaders[] = [];
  private server?: HttpServer;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      req.resume().on('end', () => {
        this.requests.push(req.headers);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((done) =>
      this.server!.listen(0, '127.0.0.1', done),
    );
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  stop(): Promise<void> {
    return new Promise((done) => {
      this.server!.close(() => done());
      this.server!.closeAllConnections();
    });
  }
}

/** A gateway's traceparent: a new trace, and the gateway's span in it. */
function gatewaySpan() {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** A statement span's SQL text ('' for another span). */
const sqlOf = (span: Span): string => {
  const text = span.attributes['db.query.text'];
  return typeof text === 'string' ? text : '';
};

/** The spans of a trace under `root`: its children, theirs, and so on. */
function below(spans: Span[], root: Span): Span[] {
  const children = spans.filter((s) => s.parentSpanId === root.spanId);
  return children.flatMap((child) => [child, ...below(spans, child)]);
}

const collector = new SpanCollector();
const receiver = new HeaderReceiver();
const provider = new LocalOAuthServer('trace-client', 'trace-secret');

beforeAll(async () => {
  await collector.start();
  await receiver.start();
  await provider.start();
});
afterAll(async () => {
  await collector.stop();
  await receiver.stop();
  await provider.stop();
});

// One database for both servers, the tracing one and the other, started in
// turn; the variables of each are set just before it starts (useServers
// reads them then).
const variables: NodeJS.ProcessEnv = {
  REDIS_URL,
  EGRESS_PRIVATE_NETWORK_TENANTS: TENANT,
  WEBHOOK_POLL_MS: '20',
};
const servers = useServers(FILE, variables);

/** The built server of a describe block, with the OTEL_ variables `otel` gives when it starts. */
function useServer(otel: () => NodeJS.ProcessEnv) {
  const started = { server: undefined as unknown as Server, base: '' };
  beforeAll(async () => {
    for (const name of Object.keys(variables))
      if (name.startsWith('OTEL_')) delete variables[name];
    Object.assign(variables, otel());
    Object.assign(started, await servers.start());
  });
  return started;
}

/** A request of the test's, with a gateway's traceparent, not following redirects. */
const send = (
  base: string,
  path: string,
  traceparent: string,
  init: RequestInit & { as?: string } = {},
) =>
  fetch(`${base}${path}`, {
    ...init,
    redirect: 'manual',
    headers: {
      traceparent,
      ...(init.as && { authorization: `Bearer ${init.as}` }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
  });

describe('tracing on (OTLP/JSON to a collector on loopback)', () => {
  const started = useServer(() => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
  }));
  const request = (
    path: string,
    traceparent: string,
    init?: RequestInit & { as?: string },
  ) => send(started.base, path, traceparent, init);

  /** The server span a gateway's span started, once exported. */
  const serverSpan = async (traceId: string, parentSpanId: string) => {
    const find = () =>
      collector
        .trace(traceId)
        .find(
          (s) => s.kind === SPAN_KIND.server && s.parentSpanId === parentSpanId,
        );
    await until(() => find() !== undefined, {
      what: `the server span of trace ${traceId}`,
    });
    return find()!;
  };

  it('traces a GET under the gateway’s traceparent: the request, its statements and Redis commands, and its log line', async () => {
    const gateway = gatewaySpan();
    const res = await request(
      `/${TENANT}/api/identity/v1`,
      gateway.traceparent,
      { as: ANN.token },
    );
    expect(res.status).toBe(200);
    const root = await serverSpan(gateway.traceId, gateway.spanId);
    expect(root).toMatchObject({
      name: 'GET /:tenant/api/identity/v1',
      scope: '@opentelemetry/instrumentation-http',
      attributes: expect.objectContaining({
        'http.request.method': 'GET',
        'http.route': '/:tenant/api/identity/v1',
        'http.response.status_code': 200,
        'url.path': `/${TENANT}/api/identity/v1`,
      }),
    });
    const trace = collector.trace(gateway.traceId);
    // Everything of the trace hangs under the request's span.
    expect(below(trace, root)).toHaveLength(trace.length - 1);
    const statements = trace.filter(
      (s) =>
        s.scope === '@opentelemetry/instrumentation-pg' &&
        s.attributes['db.query.text'],
    );
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements)
      expect(statement).toMatchObject({
        kind: SPAN_KIND.client,
        attributes: expect.objectContaining({ 'db.system.name': 'postgresql' }),
      });
    expect(statements.some((s) => /\btoken\b/.test(sqlOf(s)))).toBe(true);
    const redis = trace.filter(
      (s) => s.scope === '@opentelemetry/instrumentation-ioredis',
    );
    expect(redis.length).toBeGreaterThan(0);
    // The command alone: its keys hold token digests.
    for (const command of redis)
      expect(command.attributes['db.query.text']).toMatch(/^[a-z]+$/);
    await started.server.outputLines(/"request completed"/, 1);
    const line = logLines(started.server.output()).find(
      (l) => l.req?.url === `/${TENANT}/api/identity/v1` && l.trace_id,
    );
    expect(line).toMatchObject({
      trace_id: gateway.traceId,
      span_id: root.spanId,
      trace_flags: '01',
    });
  });

  it('traces a PUT, and its webhook delivery as a child of the PUT, whose receiver gets the delivery span’s traceparent', async () => {
    const created = await request(
      `/${TENANT}/api/admin/v1/webhooks`,
      gatewaySpan().traceparent,
      {
        method: 'POST',
        as: ADMIN.token,
        body: JSON.stringify({ url: receiver.url }),
      },
    );
    expect(created.status).toBe(201);
    const gateway = gatewaySpan();
    const res = await request(
      `/${TENANT}/api/identity/v1`,
      gateway.traceparent,
      {
        method: 'PUT',
        as: ANN.token,
        body: JSON.stringify({ displayName: 'Ann Traced' }),
      },
    );
    expect(res.status).toBe(200);
    const root = await serverSpan(gateway.traceId, gateway.spanId);
    expect(root).toMatchObject({
      name: 'PUT /:tenant/api/identity/v1',
      attributes: expect.objectContaining({ 'http.response.status_code': 200 }),
    });
    // The statement that writes the identity and its event, in the request.
    const texts = below(collector.trace(gateway.traceId), root).map(sqlOf);
    expect(
      texts.filter(
        (text) =>
          text.startsWith('with "updated" as (update "identity"') &&
          text.includes('INSERT INTO identity_event'),
      ),
    ).toHaveLength(1);

    await until(() => receiver.requests.length > 0, { what: 'the delivery' });
    const traceparent = String(receiver.requests[0].traceparent);
    const [, traceId, spanId, flags] =
      /^00-([0-9a-f]{32})-([0-9a-f]{16})-(\d\d)$/.exec(traceparent)!;
    expect([traceId, flags]).toStrictEqual([gateway.traceId, '01']);
    await until(() => collector.spans.some((s) => s.spanId === spanId), {
      what: 'the delivery’s span',
    });
    expect(collector.spans.find((s) => s.spanId === spanId)).toMatchObject({
      traceId: gateway.traceId,
      parentSpanId: root.spanId,
      name: 'POST',
      kind: SPAN_KIND.client,
      scope: '@opentelemetry/instrumentation-undici',
      attributes: expect.objectContaining({
        'url.full': receiver.url,
        'http.response.status_code': 204,
      }),
    });
  });

  it('continues the trace of a change written in a transaction of several statements in its delivery', async () => {
    // A provider's removal with its accounts: bea's removal from it in the
    // change log, appended in the removal's transaction.
    const before = receiver.requests.length;
    const gateway = gatewaySpan();
    const res = await request(
      `/${TENANT}/api/admin/v1/account-providers/old?deleteAccounts=true`,
      gateway.traceparent,
      { method: 'DELETE', as: ADMIN.token },
    );
    expect(res.status).toBe(204);
    const root = await serverSpan(gateway.traceId, gateway.spanId);
    expect(root.name).toBe(
      'DELETE /:tenant/api/admin/v1/account-providers/:accountProviderId',
    );
    await until(() => receiver.requests.length > before, {
      what: 'the delivery',
    });
    expect(receiver.requests.slice(before)).toHaveLength(1);
    const traceparent = String(receiver.requests[before].traceparent);
    const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(
      traceparent,
    )!;
    expect(traceId).toBe(gateway.traceId);
    await until(() => collector.spans.some((s) => s.spanId === spanId), {
      what: 'the delivery’s span',
    });
    expect(collector.spans.find((s) => s.spanId === spanId)).toMatchObject({
      parentSpanId: root.spanId,
      name: 'POST',
      kind: SPAN_KIND.client,
    });
  });

  it('traces a link’s callback with its calls to the provider', async () => {
    provider.signedIn = { id: 4242, login: 'ann-at-provider', name: 'Ann P.' };
    const added = await request(
      `/${TENANT}/api/admin/v1/account-providers`,
      gatewaySpan().traceparent,
      {
        method: 'POST',
        as: ADMIN.token,
        body: JSON.stringify({
          accountProviderId: 'hub',
          signInUrl: 'https://hub.example/',
          link: {
            type: 'oauth2',
            authorizationEndpoint: `${provider.base}/login/oauth/authorize`,
            tokenEndpoint: `${provider.base}/login/oauth/access_token`,
            userInfoEndpoint: `${provider.base}/user`,
            clientId: 'trace-client',
            clientSecret: 'trace-secret',
            claims: { issuedUserId: 'id', displayName: 'name' },
          },
        }),
      },
    );
    expect(added.status).toBe(201);
    const accounts = await request(
      `/${TENANT}/api/identity/v1/accounts`,
      gatewaySpan().traceparent,
      { as: ANN.token },
    );
    const [hub] = await accounts.json();
    const start = await request(
      new URL(hub.signInUrl).pathname + new URL(hub.signInUrl).search,
      gatewaySpan().traceparent,
    );
    const authorize = await fetch(start.headers.get('location')!, {
      redirect: 'manual',
    });
    const callback = new URL(authorize.headers.get('location')!);
    expect(callback.pathname).toBe(`/${TENANT}/link/v1/callback`);

    const gateway = gatewaySpan();
    const back = await request(
      callback.pathname + callback.search,
      gateway.traceparent,
    );
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toMatch(
      /^https:\/\/app\.example\.test\/linked\?.*result=confirm/,
    );
    const root = await serverSpan(gateway.traceId, gateway.spanId);
    expect(root).toMatchObject({
      name: 'GET /:tenant/link/v1/callback',
      // The code and state, as the log line writes them.
      attributes: expect.objectContaining({
        'url.query': 'state=[REDACTED]&code=[REDACTED]',
      }),
    });
    // Made before the answer, so exported no later than the request's span.
    const calls = below(collector.trace(gateway.traceId), root)
      .filter((s) => s.scope === '@opentelemetry/instrumentation-undici')
      .map((s) => [
        s.name,
        s.attributes['url.full'],
        s.attributes['http.response.status_code'],
      ]);
    expect(calls).toHaveLength(2);
    expect(calls).toEqual(
      expect.arrayContaining([
        ['POST', `${provider.base}/login/oauth/access_token`, 200],
        ['GET', `${provider.base}/user`, 200],
      ]),
    );
  });
});

describe('tracing off (no OTEL_ variable)', () => {
  const started = useServer(() => ({}));

  it('exports nothing and writes the log line without trace ids', async () => {
    const gateway = gatewaySpan();
    const res = await send(
      started.base,
      `/${TENANT}/api/identity/v1`,
      gateway.traceparent,
      { as: ANN.token },
    );
    expect(res.status).toBe(200);
    await started.server.outputLines(/"request completed"/, 1);
    const line = logLines(started.server.output()).find(
      (l) => l.req?.url === `/${TENANT}/api/identity/v1`,
    );
    expect(Object.keys(line!).sort()).toStrictEqual([
      'hostname',
      'level',
      'msg',
      'pid',
      'req',
      'res',
      'responseTime',
      'route',
      'tenant',
      'time',
    ]);
    // The batch delay of the server that traces, several times over.
    await new Promise((done) => setTimeout(done, 300));
    expect(collector.trace(gateway.traceId)).toStrictEqual([]);
  });
});
