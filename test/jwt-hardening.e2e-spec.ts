import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AccessRepository } from '../src/auth/access.repository';
import { JwtVerifier } from '../src/auth/jwt-verifier';
import { TenantFileError } from '../src/tenants/tenant-file.validator';
import { bearer, example } from './support/example';
import { identity, tenantFile } from './support/factories';
import {
  AUDIENCE,
  Behaviour,
  LocalIssuer,
  useLocalIssuer,
} from './support/local-issuer';
import { useTestApp } from './support/test-app';

// JWTs as RFC 9068 profiles them, and the issuers' servers as an attacker or
// an outage would have them answer. Every server here is on loopback.
const idp = new LocalIssuer();

/** A tenant trusting the issuer realm of the same name, with `issuer`'s fields. */
const tenant = (id: string, issuer: Record<string, unknown> = {}) =>
  tenantFile({
    id,
    tokenIssuers: [
      { issuer: idp.issuer(id), audiences: [AUDIENCE], ...issuer },
    ],
    identities: [identity('ada')],
  });

const FAILING: [string, 'discovery' | 'jwks', Behaviour][] = [
  ['jwks-500', 'jwks', 'status-500'],
  ['discovery-500', 'discovery', 'status-500'],
  ['jwks-not-json', 'jwks', 'not-json'],
  ['discovery-redirect', 'discovery', 'redirect'],
  ['jwks-redirect', 'jwks', 'redirect'],
  ['jwks-too-large', 'jwks', 'too-large'],
  ['jwks-silent', 'jwks', 'silent'],
];

describe('JWTs: RFC 9068 rules and bounded fetches from issuers', () => {
  const warnings: string[] = [];

  beforeAll(async () => {
    await idp.start();
    await idp.addKey('rsa', 'RS256');
    for (const [realm, document, behaviour] of FAILING)
      (document === 'jwks' ? idp.jwks : idp.discovery).set(realm, behaviour);
    idp.jwks.set('burst', 'status-500');
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await idp.stop();
  });
  const t = useTestApp(() => {
    const file = example();
    file.tenant.tokenIssuers = [
      { issuer: idp.issuer('example'), audiences: [AUDIENCE] },
    ];
    return {
      tenants: [
        file,
        ...FAILING.map(([realm]) => tenant(realm)),
        tenant('refused', { jwksUri: 'http://127.0.0.1:1/jwks' }),
        tenant('flight'),
        tenant('burst'),
      ],
      config: {
        jwksTimeoutMs: 300,
        jwksCooldownMs: 60_000,
        rateLimit: 1_000_000,
        rateLimitFailedAuthentications: 1_000_000,
      },
    };
  });
  beforeAll(() => {
    jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation(
        (message: unknown) => void warnings.push(String(message)),
      );
  });

  const sign = (
    tenantId: string,
    claims: Record<string, unknown>,
    options: Parameters<LocalIssuer['sign']>[1] = {},
  ) => idp.sign(claims, { realm: tenantId, ...options });
  const get = (tenantId: string, path: string, token: string) =>
    t.http().get(`/${tenantId}/api/identity/v1${path}`).set(bearer(token));

  describe('claims', () => {
    it('requires exp', async () => {
      const res = await get(
        'example',
        '',
        await sign('example', { sub: 'ada' }, { exp: null }),
      );
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="example", error="invalid_token"',
      );
      await get('example', '', await sign('example', { sub: 'ada' })).expect(
        200,
      );
    });

    it('refuses a token issued in the future beyond the clock tolerance', async () => {
      const now = Math.floor(Date.now() / 1000);
      await get(
        'example',
        '',
        await sign('example', { sub: 'ada' }, { iat: now + 300 }),
      ).expect(401);
      await get(
        'example',
        '',
        await sign('example', { sub: 'ada' }, { iat: now + 10 }),
      ).expect(200);
    });

    it.each([
      ['a number', 42],
      ['empty', ''],
      ['a list', ['ada']],
      ['U+0000', 'ada\u0000'],
    ])(
      'refuses an identity claim that is %s, even with an app id and scopes',
      async (_what, sub) => {
        await get(
          'example',
          '/ada',
          await sign('example', {
            sub,
            client_id: 'crm',
            scope: 'identities:read',
          }),
        ).expect(401);
      },
    );
  });

  describe('issuer outages', () => {
    it.each([...FAILING.map(([realm]) => [realm]), ['refused']])(
      '%s: 503 issuer-unavailable with Retry-After, no remote text anywhere',
      async (realm) => {
        warnings.length = 0;
        const res = await get(realm, '', await sign(realm, { sub: 'ada' }));
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toStrictEqual({
          type: 'urn:problem:identity:issuer-unavailable',
          title: 'Service unavailable',
          status: 503,
          detail:
            "The token's issuer cannot be reached to check its signature; retry shortly.",
          instance: `/${realm}/api/identity/v1`,
        });
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain(idp.issuer(realm));
        expect(warnings.join('\n')).not.toMatch(
          /secret-ish|remote page|padding/,
        );
      },
    );

    it('follows no redirect', () => {
      expect(
        [...idp.hits.keys()].filter((path) => path.startsWith('/elsewhere')),
      ).toStrictEqual([]);
    });

    it('remembers a failure for a while instead of fetching again', async () => {
      const before = idp.requests('/jwks-500/jwks');
      const token = await sign('jwks-500', { sub: 'ada' });
      const statuses = await Promise.all(
        Array.from({ length: 10 }, () =>
          get('jwks-500', '', token).then((r) => r.status),
        ),
      );
      expect(statuses).toStrictEqual(Array(10).fill(503));
      expect(idp.requests('/jwks-500/jwks')).toBe(before);
    });

    it('logs one warning for a failure however many requests waited on it', async () => {
      warnings.length = 0;
      const token = await sign('burst', { sub: 'ada' });
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          get('burst', '', token).then((r) => r.status),
        ),
      );
      expect(statuses).toStrictEqual(Array(20).fill(503));
      expect(idp.requests('/burst/jwks')).toBe(1);
      expect(warnings).toStrictEqual([
        expect.stringContaining(`Keys of issuer ${idp.issuer('burst')}`),
      ]);
    });

    it('fetches discovery and keys once for concurrent first requests', async () => {
      const token = await sign('flight', { sub: 'ada' });
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          get('flight', '', token).then((r) => r.status),
        ),
      );
      expect(statuses).toStrictEqual(Array(20).fill(200));
      expect(idp.requests('/flight/.well-known/openid-configuration')).toBe(1);
      expect(idp.requests('/flight/jwks')).toBe(1);
    });
  });

  it('keeps nothing for tenants that do not exist', async () => {
    const cached = t.app.get(JwtVerifier).cachedTenants;
    const token = await idp.sign({ sub: 'ada' });
    for (let batch = 0; batch < 20; batch++)
      await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const segment =
            i % 2
              ? `t-${randomBytes(8).toString('hex')}`
              : `NOT_A_TENANT_${batch}_${i}`;
          const res = await t
            .http()
            .get(`/${segment}/api/identity/v1`)
            .set(bearer(token));
          expect(res.status).toBe(401);
        }),
      );
    expect(t.app.get(JwtVerifier).cachedTenants).toBe(cached);
  });

  // Issue: a made-up tenant cost a database read on every request, an
  // existing one only once per issuer-list lifetime; timing told them apart.
  it('reads a made-up tenant no more often than an existing one', async () => {
    const reads = jest.spyOn(AccessRepository.prototype, 'findIssuers');
    try {
      const token = await idp.sign({ sub: 'ada' });
      const count = async (segment: string) => {
        reads.mockClear();
        for (let i = 0; i < 20; i++)
          await t
            .http()
            .get(`/${segment}/api/identity/v1`)
            .set(bearer(token))
            .expect(401);
        return reads.mock.calls.length;
      };
      // Twenty requests each, within one issuer-list lifetime: one read at most.
      expect(await count('flight')).toBeLessThanOrEqual(1);
      expect(await count(`t-${randomBytes(8).toString('hex')}`)).toBe(1);
      expect(await count('NOT_A_TENANT')).toBe(0);
    } finally {
      reads.mockRestore();
    }
  });

  it.each([
    [
      'http://169.254.169.254/latest',
      'must not name a link-local address or a cloud metadata service',
    ],
    [
      'https://metadata.google.internal/x',
      'must not name a link-local address or a cloud metadata service',
    ],
    [
      'https://[fe80::1]/x',
      'must not name a link-local address or a cloud metadata service',
    ],
    [
      'http://login.example.org/realms/x',
      'must use https (http only on loopback: localhost, 127.0.0.0/8, ::1)',
    ],
  ])('refuses to import an issuer at %s', async (url, message) => {
    for (const [candidate, field] of [
      [
        tenant('refused-import', { issuer: url }),
        'tenant.tokenIssuers[0].issuer',
      ],
      [
        tenant('refused-import', { jwksUri: url }),
        'tenant.tokenIssuers[0].jwksUri',
      ],
    ] as const) {
      const error = await t.tenants.importTenant(candidate).catch((e) => e);
      expect(error).toBeInstanceOf(TenantFileError);
      expect((error as TenantFileError).errors).toStrictEqual([
        { field, message },
      ]);
    }
  });
});

describe('JWTs: a key set that fails is discovered again', () => {
  const issuer = useLocalIssuer();
  const t = useTestApp(() => ({
    tenants: [
      tenantFile({
        id: 'moved',
        tokenIssuers: [
          { issuer: issuer.issuer('moved'), audiences: [AUDIENCE] },
        ],
        identities: [identity('ada')],
      }),
    ],
    config: { jwksCooldownMs: 0 },
  }));

  it('rediscovers the address after its key set fails', async () => {
    issuer.jwks.set('moved', 'status-500');
    const token = await issuer.sign({ sub: 'ada' }, { realm: 'moved' });
    const get = () => t.http().get('/moved/api/identity/v1').set(bearer(token));
    await get().expect(503);
    issuer.jwks.set('moved', 'ok');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await get().expect(200);
    expect(issuer.requests('/moved/.well-known/openid-configuration')).toBe(2);
  });
});
