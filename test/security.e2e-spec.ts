import { AuthService } from '../src/auth/auth.service';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { AccessRepository } from '../src/auth/access.repository';
import { TenantFileError } from '../src/tenants/tenant-file.validator';
import { API, bearer, example, TOKENS } from './support/example';
import { logLines, withServer } from './support/server';
import { TestApp, useTestApp } from './support/test-app';
import { databaseKind } from './support/test-database';
import { until } from './support/until';

// What an outside security review found, each kept as a regression test.
const STRANGER = 'example-olga-access-token-0001';
const json = { 'Content-Type': 'application/json' };
const nested = (levels: number) =>
  `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;
const rateLimitHeaders = (res: { headers: Record<string, string> }) => ({
  limit: res.headers['ratelimit-limit'],
  remaining: res.headers['ratelimit-remaining'],
  reset: res.headers['ratelimit-reset'],
});

describe('rate limits that cannot be sidestepped', () => {
  const t = useTestApp({
    tenants: [example()],
    config: { rateLimit: 3, rateLimitFailedAuthentications: 5 },
  });

  it('keys the budget on the token however it is sent, and answers 429 with every header', async () => {
    const token = TOKENS.charles;
    await t.http().get(API).set('Authorization', `Bearer ${token}`).expect(200);
    await t.http().get(API).set('Authorization', `bearer ${token}`).expect(200);
    await t.http().get(`${API}?access_token=${token}`).expect(200);
    for (const send of [
      (r: ReturnType<TestApp['http']>) =>
        r.get(API).set('Authorization', `BEARER ${token}`),
      (r: ReturnType<TestApp['http']>) => r.get(`${API}?access_token=${token}`),
    ]) {
      const refused = await send(t.http()).expect(429);
      expect(rateLimitHeaders(refused)).toStrictEqual({
        limit: '3',
        remaining: '0',
        reset: refused.headers['retry-after'],
      });
    }
  });

  it('sends the rate-limit headers on 413, 415 and malformed-JSON 400 answers', async () => {
    const token = TOKENS.mary;
    const tooLarge = await t
      .http()
      .put(API)
      .set(bearer(token))
      .set(json)
      .send(`{"displayName":"${'x'.repeat(70_000)}"}`)
      .expect(413);
    expect(rateLimitHeaders(tooLarge)).toMatchObject({
      limit: '3',
      remaining: '2',
    });
    const notJson = await t
      .http()
      .put(API)
      .set(bearer(token))
      .set('Content-Type', 'text/plain')
      .send('displayName=x')
      .expect(415);
    expect(rateLimitHeaders(notJson)).toMatchObject({
      limit: '3',
      remaining: '1',
    });
    const broken = await t
      .http()
      .put(API)
      .set(bearer(token))
      .set(json)
      .send('{"displayName":')
      .expect(400);
    expect(rateLimitHeaders(broken)).toMatchObject({
      limit: '3',
      remaining: '0',
    });
  });
});

describe('made-up tokens', () => {
  const t = useTestApp({
    tenants: [example()],
    config: { rateLimit: 3, rateLimitFailedAuthentications: 5 },
  });

  it('charges made-up tokens to the client address, never valid tokens to it', async () => {
    const madeUp = () => `made-up-${randomBytes(8).toString('hex')}`;
    // ada's token is in use from this address before the flood.
    await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
    for (let i = 1; i <= 5; i++) {
      const res = await t.http().get(API).set(bearer(madeUp())).expect(401);
      expect(rateLimitHeaders(res)).toStrictEqual({
        limit: '5',
        remaining: String(5 - i),
        reset: expect.stringMatching(/^\d+$/),
      });
    }
    const refused = await t.http().get(API).set(bearer(madeUp())).expect(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body).toMatchObject({
      type: 'urn:problem:identity:too-many-requests',
      status: 429,
    });
    // A valid token in use from the same address keeps its own budget.
    const valid = await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
    expect(rateLimitHeaders(valid)).toMatchObject({
      limit: '3',
      remaining: '1',
    });
  });
});

describe('a spent budget of failures', () => {
  const t = useTestApp({
    tenants: [example()],
    config: { rateLimit: 100, rateLimitFailedAuthentications: 5 },
  });

  it('decides the 429 of a spent budget of failures before any token lookup', async () => {
    await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
    for (let i = 0; i < 5; i++)
      await t
        .http()
        .get(API)
        .set(bearer(`made-up-${randomBytes(8).toString('hex')}`))
        .expect(401);
    const auth = t.app.get(AuthService);
    const lookups = jest.spyOn(auth, 'authenticate');
    try {
      for (let i = 0; i < 50; i++) {
        const res = await t
          .http()
          .get(API)
          .set(bearer(`made-up-${randomBytes(8).toString('hex')}`))
          .expect(429);
        expect(rateLimitHeaders(res)).toMatchObject({
          limit: '5',
          remaining: '0',
        });
      }
      // A token this instance has not seen valid waits for the window too.
      await t.http().get(API).set(bearer(TOKENS.mary)).expect(429);
      expect(lookups).not.toHaveBeenCalled();
      // One this instance has seen valid is looked up and served.
      await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
    } finally {
      lookups.mockRestore();
    }
  });
});

describe('hostile requests', () => {
  const t = useTestApp(() => {
    const file = example();
    file.identities.push({ identityId: 'olga', displayName: 'Olga' });
    file.identities.push({ identityId: 'Accounts', displayName: 'Capital A' });
    file.tokens.push({ token: STRANGER, type: 'access', identityId: 'olga' });
    file.identities.find(
      (i: { identityId: string }) => i.identityId === 'mary',
    ).oldIdentityIds = ['mary-old'];
    return { tenants: [file], config: { rateLimit: 1_000_000 } };
  });
  let port: number;
  beforeAll(async () => {
    port = await t.listen();
  });

  /** A request written byte by byte, as a client that breaks the rules sends it. */
  const raw = (head: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.end(`${head}Host: localhost\r\nConnection: close\r\n\r\n`),
      );
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });

  it('routes paths case-sensitively: an identity called "Accounts" is not the accounts list', async () => {
    const named = await t
      .http()
      .get(`${API}/Accounts`)
      .set(bearer(TOKENS.ada))
      .expect(200);
    expect(named.body).toMatchObject({
      identityId: 'Accounts',
      displayName: 'Capital A',
    });
    const list = await t
      .http()
      .get(`${API}/accounts`)
      .set(bearer(TOKENS.ada))
      .expect(200);
    expect(Array.isArray(list.body)).toBe(true);
    await t
      .http()
      .get(`${API.toUpperCase()}`)
      .set(bearer(TOKENS.ada))
      .expect(404);
  });

  it('refuses two Authorization headers, and a header token beside an empty access_token', async () => {
    const two = await raw(
      `GET ${API} HTTP/1.1\r\nAuthorization: Bearer ${TOKENS.ada}\r\nAuthorization: Bearer ${TOKENS.mary}\r\n`,
    );
    expect(two).toMatch(/^HTTP\/1\.1 400 /);
    expect(two).toContain('Send one Authorization header, not several.');
    const res = await t
      .http()
      .get(`${API}?access_token=`)
      .set(bearer(TOKENS.ada))
      .expect(400);
    expect(res.body.detail).toBe(
      'Send the access token either in the Authorization header or in access_token, not both.',
    );
  });

  it('answers another scheme as no authentication (401 and a challenge without an error), a malformed Bearer value 400', async () => {
    for (const header of ['Basic YWRhOnNlY3JldA==', 'Token abc', 'Digest x']) {
      const res = await t
        .http()
        .get(API)
        .set('Authorization', header)
        .expect(401);
      expect([header, res.headers['www-authenticate']]).toStrictEqual([
        header,
        `Bearer realm="${API.split('/')[1]}"`,
      ]);
      expect(res.body).toMatchObject({
        status: 401,
        detail:
          'Send an access token in the Authorization header (Bearer) or in the access_token query parameter.',
      });
    }
    for (const header of ['Bearer', 'Bearer a b', 'bearer  ']) {
      const res = await t
        .http()
        .get(API)
        .set('Authorization', header)
        .expect(400);
      expect([header, res.body.detail]).toStrictEqual([
        header,
        'The Authorization header must be of the form "Bearer <token>".',
      ]);
    }
  });

  it('answers a body nested thousands of levels deep with 400, naming where', async () => {
    const res = await t
      .http()
      .put(API)
      .set(bearer(TOKENS.ada))
      .set(json)
      .send(`{"properties":${nested(3000)}}`)
      .expect(400);
    expect(res.body).toMatchObject({
      type: 'urn:problem:identity:invalid-request',
      detail: 'The body nests values more than 32 levels deep.',
      errors: [
        {
          field: `properties.${Array(32).fill('a').join('.')}`,
          message: 'is nested more than 32 levels deep',
        },
      ],
    });
    const file = example();
    file.identities[0].properties = JSON.parse(nested(3000));
    const error = await t.tenants.importTenant(file).catch((e) => e);
    expect(error).toBeInstanceOf(TenantFileError);
    expect((error as TenantFileError).errors).toStrictEqual([
      {
        field: `identities[0].properties.${Array(30).fill('a').join('.')}`,
        message: 'is nested more than 32 levels deep',
      },
    ]);
  });

  it('refuses a lone surrogate instead of storing U+FFFD', async () => {
    const before = await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
    const res = await t
      .http()
      .put(API)
      .set(bearer(TOKENS.ada))
      .set(json)
      .send('{"displayName":"x\\ud800y","givenNames":["ok","\\udfff"]}')
      .expect(400);
    expect(res.body.errors).toStrictEqual([
      {
        field: 'displayName',
        message: 'must not contain a lone surrogate (U+D800–U+DFFF)',
      },
      {
        field: 'givenNames',
        message: 'each item must not contain a lone surrogate (U+D800–U+DFFF)',
      },
    ]);
    const after = await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
    expect(after.body).toStrictEqual(before.body);
    const file = example();
    file.identities[1].surname = 'Babbage\ud800';
    const error = await t.tenants.importTenant(file).catch((e) => e);
    expect((error as TenantFileError).errors).toStrictEqual([
      {
        field: 'identities[1].surname',
        message: 'must not contain a lone surrogate (U+D800–U+DFFF)',
      },
    ]);
  });

  it("answers a stranger's request for a merged-away id with the one access query a missing id costs", async () => {
    const access = jest.spyOn(t.app.get(AccessRepository), 'accessFacts');
    try {
      await t.http().get(`${API}/mary-old`).set(bearer(STRANGER)).expect(404);
      await t
        .http()
        .get(`${API}/nobody-at-all`)
        .set(bearer(STRANGER))
        .expect(404);
      expect(access).toHaveBeenCalledTimes(2);
      // Allowed callers still follow the merge.
      const moved = await t
        .http()
        .get(`${API}/mary-old`)
        .set(bearer(TOKENS.ada))
        .expect(308);
      expect(moved.headers.location).toBe(`${API}/mary`);
      expect(access).toHaveBeenCalledTimes(3);
    } finally {
      access.mockRestore();
    }
  });
});

describe('ETags', () => {
  const t = useTestApp(() => {
    const other = example();
    other.tenant.id = 'other';
    other.tokens = other.tokens.map((token: { token: string }) => ({
      ...token,
      token: token.token.replace('example-', 'other-'),
    }));
    return { tenants: [example(), other] };
  });

  it('reveal nothing of the version sequence all tenants share', async () => {
    const tagOf = async (path: string, token: string) =>
      (await t.http().get(path).set(bearer(token)).expect(200)).headers.etag;
    const versions = await t.database.prisma.identity.findMany({
      where: { identityId: 'ada' },
      select: { tenantId: true, version: true },
    });
    const exampleTag = await tagOf(API, TOKENS.ada);
    const otherTag = await tagOf(
      '/other/api/identity/v1',
      'other-ada-access-token-0001',
    );
    expect(exampleTag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(exampleTag).not.toBe(otherTag);
    for (const { version } of versions)
      expect([exampleTag, otherTag]).not.toContain(`"${version}"`);
    const put = await t
      .http()
      .put(API)
      .set(bearer(TOKENS.ada))
      .set(json)
      .send({ displayName: 'Ada, changed' })
      .expect(200);
    expect(put.headers.etag).not.toBe(exampleTag);
    expect(await tagOf(API, TOKENS.ada)).toBe(put.headers.etag);
    // The tag of a reduced representation names the same version.
    const reduced = await tagOf(`${API}?fields=displayName`, TOKENS.ada);
    expect(reduced).toMatch(
      new RegExp(`^${put.headers.etag.slice(0, -1)}-[A-Za-z0-9_-]{10}"$`),
    );
    await t
      .http()
      .put(API)
      .set(bearer(TOKENS.ada))
      .set('If-Match', reduced)
      .set(json)
      .send({ displayName: 'Ada' })
      .expect(200);
  });
});

describe('keep-alive behind a gateway', () => {
  const t = useTestApp({
    tenants: [example()],
    config: { keepAliveTimeoutMs: 2000, headersTimeoutMs: 1000 },
  });

  it('announces its idle timeout and keeps an idle connection that long, headers timeout or not', async () => {
    const socket = connect(await t.listen(), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    const request = `GET ${API} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKENS.ada}\r\n\r\n`;
    const answers = () => received.split('HTTP/1.1 200 OK').length - 1;
    socket.write(request);
    await until(() => answers() === 1);
    expect(received).toContain('Keep-Alive: timeout=2\r\n');
    // Idle longer than the headers timeout, shorter than the keep-alive one:
    // only the time a request's headers take counts against the former.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    socket.write(request);
    await until(() => answers() === 2);
    socket.destroy();
  });
});

// What the log holds does not depend on the database: the built server runs
// on PostgreSQL, where it starts in a second, not on a new embedded one.
if (databaseKind() === 'postgres')
  describe('the running server', () => {
    it('logs no token, however its parameter name is spelled, and warns about TRUST_PROXY=true', async () => {
      const token = 'demo-alice-access-token';
      const spellings = [
        'access%5Ftoken',
        '%61ccess_token',
        'access_token[]',
        ';access_token',
        '__proto__[access_token]',
      ];
      const trusting = { TRUST_PROXY: 'true' };
      const server = await withServer(
        'identity-redact-',
        trusting,
        async (_, url) => {
          const base = `${url}/demo/api/identity/v1`;
          for (const name of spellings)
            await fetch(`${base}?limit=1&${name}=${token}`);
          const authenticated = await fetch(`${base}?access%5Ftoken=${token}`);
          expect(authenticated.status).toBe(200);
        },
      );
      const lines = logLines(server.output());
      const urls = lines.filter((l) => l.req).map((l) => l.req.url);
      expect(urls).toStrictEqual([
        ...spellings.map(
          (name) => `/demo/api/identity/v1?limit=1&${name}=[REDACTED]`,
        ),
        '/demo/api/identity/v1?access%5Ftoken=[REDACTED]',
      ]);
      expect(
        lines.filter((l) => JSON.stringify(l).includes(token)),
      ).toStrictEqual([]);
      expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toContain(
        "TRUST_PROXY=true believes X-Forwarded-For from any client, which can then pick its own address and budget; set TRUST_PROXY to the gateway's addresses or hop count.",
      );
    });

    it('logs no link ticket, authorization code or state', async () => {
      const secret = 'link-secret-b64url_0123456789';
      const paths = [
        `/demo/link/v1/op/start?ticket=${secret}&redirect_uri=https%3A%2F%2Fapp.example%2F`,
        `/demo/link/v1/op/start?%74icket=${secret}`,
        `/demo/link/v1/callback?code=${secret}&state=${secret}&iss=https%3A%2F%2Fop.example`,
        `/demo/link/v1/callback?state[]=${secret};code[]=${secret}`,
      ];
      const server = await withServer(
        'identity-redact-link-',
        {},
        async (_, url) => {
          for (const path of paths)
            await fetch(`${url}${path}`, { redirect: 'manual' });
        },
      );
      const lines = logLines(server.output());
      expect(lines.filter((l) => l.req).map((l) => l.req.url)).toStrictEqual([
        '/demo/link/v1/op/start?ticket=[REDACTED]&redirect_uri=https%3A%2F%2Fapp.example%2F',
        '/demo/link/v1/op/start?%74icket=[REDACTED]',
        '/demo/link/v1/callback?code=[REDACTED]&state=[REDACTED]&iss=https%3A%2F%2Fop.example',
        '/demo/link/v1/callback?state[]=[REDACTED];code[]=[REDACTED]',
      ]);
      expect(
        lines.filter((l) => JSON.stringify(l).includes(secret)),
      ).toStrictEqual([]);
    });
  });
