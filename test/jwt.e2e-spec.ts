import { exportSPKI, SignJWT } from 'jose';
import { createHmac } from 'node:crypto';
import { AppConfig } from '../src/config/app-config';
import { TenantFileError } from '../src/tenants/tenant-file.validator';
import { allowPrivateNetworks } from './support/egress';
import { API, example } from './support/example';
import { identity, tenantFile } from './support/factories';
import { AUDIENCE, LocalIssuer } from './support/local-issuer';
import { useTestApp } from './support/test-app';

const b64 = (value: object) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

describe('JWT access tokens from the tenant’s authorization server', () => {
  const idp = new LocalIssuer();
  let rsaPublicKey: CryptoKey;

  beforeAll(async () => {
    await idp.start();
    rsaPublicKey = await idp.addKey('rsa', 'RS256');
    await idp.addKey('ec', 'ES256');
    await idp.addKey('ed', 'EdDSA');
  });
  afterAll(() => idp.stop());
  const t = useTestApp(() => {
    const file = example();
    file.tenant.tokenIssuers = [
      {
        issuer: `${idp.base}/example`,
        audiences: [AUDIENCE],
        accountClaim: 'account',
      },
    ];
    const other = tenantFile({
      id: 'other',
      name: 'Other',
      tokenIssuers: [
        {
          issuer: `${idp.base}/other`,
          jwksUri: `${idp.base}/other/jwks`,
          audiences: [AUDIENCE],
        },
      ],
      identities: [identity('ada')],
    });
    const down = tenantFile({
      id: 'down',
      tokenIssuers: [
        {
          issuer: `${idp.base}/down`,
          jwksUri: 'http://127.0.0.1:1/jwks',
          audiences: [AUDIENCE],
        },
      ],
      identities: [identity('ada')],
    });
    return {
      tenants: [file, other, down],
      config: { jwksCooldownMs: 300 },
    };
  });

  const get = (path: string, token: string) => t.as(token).get(`${API}${path}`);

  it.each(['rsa', 'ec', 'ed'])(
    'accepts a valid token signed with %s, found through discovery',
    async (kid) => {
      const res = await get('', await idp.sign({ sub: 'ada' }, { kid })).expect(
        200,
      );
      expect(res.body.identityId).toBe('ada');
    },
  );

  it('marks the account named in the token as current', async () => {
    const res = await get(
      '/accounts',
      await idp.sign({ sub: 'ada', account: 'acc-ada-google-2' }),
    ).expect(200);
    const current = res.body.flatMap(
      (p: { accounts: { accountId: string; isCurrent: boolean }[] }) =>
        p.accounts.filter((a) => a.isCurrent).map((a) => a.accountId),
    );
    expect(current).toStrictEqual(['acc-ada-google-2']);
  });

  it('applies the authorization table to JWT callers', async () => {
    await get('/mary', await idp.sign({ sub: 'ada' })).expect(200);
    const friend = await get(
      '/mary',
      await idp.sign({ sub: 'charles' }),
    ).expect(200);
    expect(friend.body.emailAddress).toBeUndefined();
    await get('/mary/roles', await idp.sign({ sub: 'charles' })).expect(404);
    await get('', await idp.sign({ sub: 'grace' })).expect(403);
  });

  // The read side's authorization table with JWT callers; target mary.
  const PATHS = [
    '',
    '/accounts',
    '/friends',
    '/roles',
    '/mary',
    '/mary/accounts',
    '/mary/friends',
    '/mary/roles',
  ];
  it.each([
    ['self', { sub: 'mary' }, [200, 200, 200, 200, 200, 200, 200, 200]],
    ['friend', { sub: 'charles' }, [200, 200, 200, 200, 200, 404, 404, 404]],
    ['admin', { sub: 'ada' }, [200, 200, 200, 200, 200, 200, 200, 200]],
    ['disabled', { sub: 'grace' }, [403, 403, 403, 403, 403, 403, 403, 403]],
    [
      'app with identities:read',
      { client_id: 'crm', scope: 'identities:read' },
      [403, 403, 403, 403, 200, 200, 200, 200],
    ],
    [
      'app without scope',
      { client_id: 'bare' },
      [403, 403, 403, 403, 403, 403, 403, 403],
    ],
    [
      'unknown identity',
      { sub: 'nobody' },
      [401, 401, 401, 401, 401, 401, 401, 401],
    ],
  ])(
    'authorizes a JWT caller (%s) as the table says',
    async (_who, claims, statuses) => {
      const token = await idp.sign(claims);
      const answered = [];
      for (const path of PATHS) answered.push((await get(path, token)).status);
      expect(answered).toStrictEqual(statuses);
    },
  );

  it('recognises app tokens and their scopes', async () => {
    const reader = await idp.sign({
      client_id: 'crm',
      scope: 'identities:read openid',
    });
    await get('/ada', reader).expect(200);
    await get('', reader).expect(403);
    await get('/ada', await idp.sign({ azp: 'bare', sub: 'bare' })).expect(403);
    const janitor = await idp.sign({
      client_id: 'janitor',
      scp: ['identities:delete'],
    });
    await t.as(janitor).delete(`${API}/nobody`).expect(404);
  });

  const rejected = async (token: string, path = API) => {
    const res = await t.as(token).get(path).expect(401);
    expect(res.headers['www-authenticate']).toMatch(
      /^Bearer realm="\w+", error="invalid_token"$/,
    );
    expect(JSON.stringify(res.body)).not.toContain(token);
  };

  it('rejects an expired token and one not yet valid', async () => {
    await rejected(await idp.sign({ sub: 'ada' }, { exp: '-2m' }));
    const key = idp.keys[0];
    const early = await new SignJWT({ sub: 'ada' })
      .setProtectedHeader({ alg: 'RS256', kid: 'rsa' })
      .setIssuer(`${idp.base}/example`)
      .setAudience(AUDIENCE)
      .setNotBefore('10m')
      .setExpirationTime('20m')
      .sign(key.privateKey);
    await rejected(early);
  });

  it('rejects a wrong issuer, a wrong audience and an unknown identity', async () => {
    await rejected(await idp.sign({ sub: 'ada' }, { realm: 'elsewhere' }));
    await rejected(await idp.sign({ sub: 'ada' }, { audience: 'another-api' }));
    await rejected(await idp.sign({ sub: 'nobody' }));
  });

  it('never accepts a token of one tenant on another tenant’s paths', async () => {
    await rejected(await idp.sign({ sub: 'ada' }, { realm: 'other' }));
    await rejected(await idp.sign({ sub: 'ada' }), '/other/api/identity/v1');
    await t
      .as(await idp.sign({ sub: 'ada' }, { realm: 'other' }))
      .get('/other/api/identity/v1')
      .expect(200);
  });

  it('rejects alg "none", HMAC signed with the public key, and a tampered payload', async () => {
    const claims = {
      sub: 'ada',
      iss: `${idp.base}/example`,
      aud: AUDIENCE,
      exp: Math.floor(Date.now() / 1000) + 300,
    };
    await rejected(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`);
    const pem = await exportSPKI(rsaPublicKey);
    const unsigned = `${b64({ alg: 'HS256', kid: 'rsa' })}.${b64(claims)}`;
    await rejected(
      `${unsigned}.${createHmac('sha256', pem).update(unsigned).digest('base64url')}`,
    );
    const [header, , signature] = (await idp.sign({ sub: 'charles' })).split(
      '.',
    );
    await rejected(`${header}.${b64({ ...claims, sub: 'ada' })}.${signature}`);
  });

  it('rejects an unknown key id, then accepts it once the issuer publishes it', async () => {
    await idp.addKey('rotated', 'RS256', false);
    const token = await idp.sign({ sub: 'ada' }, { kid: 'rotated' });
    await rejected(token);
    idp.published.push('rotated');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await get('', token).expect(200);
  });

  it('answers 503 when the issuer’s keys cannot be fetched', async () => {
    const res = await t
      .as(await idp.sign({ sub: 'ada' }, { realm: 'down' }))
      .get('/down/api/identity/v1')
      .expect(503);
    expect(res.body.type).toBe('urn:problem:identity:issuer-unavailable');
    expect(res.headers['retry-after']).toBe('5');
  });

  it('keeps opaque tokens working beside JWTs', async () => {
    await get('', 'example-ada-access-token-0001').expect(200);
  });

  it('refuses an issuer and audience another tenant trusts, and exports issuers', async () => {
    const clash = tenantFile({
      tokenIssuers: [{ issuer: `${idp.base}/example`, audiences: [AUDIENCE] }],
    });
    // Its issuer is on loopback, as the operator may allow a tenant.
    allowPrivateNetworks(t.app.get(AppConfig), clash.tenant.id);
    await expect(t.tenants.importTenant(clash)).rejects.toThrow(
      TenantFileError,
    );
    await expect(t.tenants.importTenant(clash)).rejects.toThrow(
      `tenant.tokenIssuers[0].audiences: issuer "${idp.base}/example" with audience "${AUDIENCE}" is already trusted by tenant "example"`,
    );
    const exported = (await t.tenants.exportTenant('other')) as {
      tenant: object;
    };
    expect(exported.tenant).toStrictEqual({
      id: 'other',
      name: 'Other',
      adminRoles: [],
      tokenIssuers: [
        {
          issuer: `${idp.base}/other`,
          jwksUri: `${idp.base}/other/jwks`,
          audiences: [AUDIENCE],
          algorithms: ['RS256', 'ES256', 'EdDSA'],
          identityClaim: 'sub',
          identityMatch: 'identityId',
          appIdClaims: ['client_id', 'azp'],
          scopeClaim: 'scope',
        },
      ],
    });
  });
});
