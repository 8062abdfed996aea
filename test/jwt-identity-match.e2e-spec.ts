import { TenantFileError } from '../src/tenants/tenant-file.validator';
import { AUDIENCE, LocalIssuer } from './support/local-issuer';
import { startTestApp, TestApp } from './support/test-app';

const SCIM_TOKEN = 'match-directory-app-token-01';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A tenant whose one issuer is `realm` of the local issuer, with `issuer`'s keys. */
const tenant = (idp: LocalIssuer, id: string, issuer: object) => ({
  tenant: {
    id,
    name: id,
    tokenIssuers: [
      { issuer: idp.issuer(id), audiences: [AUDIENCE], ...issuer },
    ],
  },
  accountProviders: [
    { accountProviderId: 'acme-sso', signInUrl: 'https://login.acme.example' },
  ],
  identities: [
    {
      identityId: 'dana',
      userName: 'Dana.Scully',
      accounts: [
        {
          accountId: 'dana-sso',
          accountProviderId: 'acme-sso',
          issuedUserId: 'sso-777',
        },
      ],
    },
  ],
  // A directory's token, for the tenant whose issuer matches externalIds.
  tokens:
    id === 'by-external'
      ? [
          {
            token: SCIM_TOKEN,
            type: 'app',
            appId: 'directory',
            scopes: ['scim:provision'],
          },
        ]
      : [],
});

describe('sign-ins find the identity a directory provisioned (identityMatch)', () => {
  const idp = new LocalIssuer();
  let t: TestApp;

  beforeAll(async () => {
    await idp.start();
    await idp.addKey('rsa', 'RS256');
    t = await startTestApp([
      tenant(idp, 'by-external', { identityMatch: 'externalId' }),
      tenant(idp, 'by-username', { identityMatch: 'userName' }),
      tenant(idp, 'by-account', {
        identityMatch: 'account',
        accountProvider: 'acme-sso',
      }),
    ]);
  });
  afterAll(async () => {
    await t.close();
    await idp.stop();
  });

  const me = async (realm: string, sub: string, path = '') =>
    t
      .as(await idp.sign({ sub }, { realm }))
      .get(`/${realm}/api/identity/v1${path}`);
  const scim = (method: 'post' | 'patch', path: string, body: object) =>
    t
      .http()
      [method](`/by-external/scim/v2${path}`)
      .set('Authorization', `Bearer ${SCIM_TOKEN}`)
      .set('Content-Type', 'application/scim+json')
      .send(JSON.stringify(body));

  it('externalId: a JWT whose subject a directory gave as externalId acts as that User; deactivated, 403', async () => {
    const created = await scim('post', '/Users', {
      schemas: [USER],
      userName: 'fox',
      externalId: 'entra-oid-42',
    }).expect(201);
    const id = created.body.id;
    const res = await me('by-external', 'entra-oid-42');
    expect([res.status, res.body.identityId, res.body.userName]).toStrictEqual([
      200,
      id,
      'fox',
    ]);
    // The identityId itself is not what these tokens carry.
    expect((await me('by-external', id)).status).toBe(401);
    expect((await me('by-external', 'dana')).status).toBe(401);
    await scim('patch', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    }).expect(200);
    const refused = await me('by-external', 'entra-oid-42');
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.body.detail).toBe(
      'The identity of this access token is disabled.',
    );
  });

  it('externalId: one that two identities share names neither (401), and creates none', async () => {
    for (const userName of ['twin-a', 'twin-b'])
      await scim('post', '/Users', {
        schemas: [USER],
        userName,
        externalId: 'shared-ext',
      }).expect(201);
    const res = await me('by-external', 'shared-ext');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(
      await t.database.prisma.identity.count({
        where: { tenantId: 'by-external', externalId: 'shared-ext' },
      }),
    ).toBe(2);
  });

  it('userName: the subject is the userName, in any case', async () => {
    for (const sub of ['Dana.Scully', 'dana.scully', 'DANA.SCULLY']) {
      const res = await me('by-username', sub);
      expect([sub, res.status, res.body.identityId]).toStrictEqual([
        sub,
        200,
        'dana',
      ]);
    }
    expect((await me('by-username', 'dana')).status).toBe(401);
  });

  it('account: the subject is the issuedUserId of the account at the issuer’s provider, which is the current one', async () => {
    const res = await me('by-account', 'sso-777');
    expect([res.status, res.body.identityId]).toStrictEqual([200, 'dana']);
    const accounts = await me('by-account', 'sso-777', '/accounts');
    expect(accounts.status).toBe(200);
    expect(accounts.body).toStrictEqual([
      {
        accountProviderId: 'acme-sso',
        signInUrl: 'https://login.acme.example',
        canAddAnotherAccount: false,
        accounts: [
          { accountId: 'dana-sso', issuedUserId: 'sso-777', isCurrent: true },
        ],
      },
    ]);
    expect((await me('by-account', 'dana')).status).toBe(401);
    expect((await me('by-account', 'dana-sso')).status).toBe(401);
  });

  it('keeps identityMatch through export and import', async () => {
    const exported = (await t.tenants.exportTenant('by-account')) as {
      tenant: { tokenIssuers: Record<string, unknown>[] };
    };
    expect(exported.tenant.tokenIssuers[0]).toMatchObject({
      identityMatch: 'account',
      accountProvider: 'acme-sso',
    });
    await t.tenants.importTenant(structuredClone(exported), { replace: true });
    expect(await t.tenants.exportTenant('by-account')).toStrictEqual(exported);
  });

  it.each([
    [
      { identityMatch: 'email' },
      'identityMatch',
      'must be one of identityId, externalId, userName, account',
    ],
    [
      { identityMatch: 'account' },
      'identityMatch',
      '"account" needs an accountProvider',
    ],
    [
      { identityMatch: 'externalId', provisioning: 'jit' },
      'provisioning',
      '"jit" goes with identityMatch "identityId" only',
    ],
  ])('refuses the issuer entry %j', async (issuer, key, message) => {
    const file = tenant(idp, 'refused', issuer);
    const error = await t.tenants.importTenant(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TenantFileError);
    expect((error as TenantFileError).errors).toStrictEqual([
      { field: `tenant.tokenIssuers[0].${key}`, message },
    ]);
  });
});
