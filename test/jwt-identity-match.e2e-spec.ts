import { TenantFileError } from '../src/tenants/tenant-file.validator';
import { identity, provider, tenantFile, token } from './support/factories';
import { AUDIENCE, LocalIssuer, useLocalIssuer } from './support/local-issuer';
import { useTestApp } from './support/test-app';

const SCIM = token({ appId: 'directory', scopes: ['scim:provision'] });
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A tenant whose one issuer is `realm` of the local issuer, with `issuer`'s keys. */
const tenant = (idp: LocalIssuer, id: string, issuer: object) =>
  tenantFile({
    id,
    tokenIssuers: [
      { issuer: idp.issuer(id), audiences: [AUDIENCE], ...issuer },
    ],
    accountProviders: [
      provider('acme-sso', { signInUrl: 'https://login.acme.example' }),
    ],
    identities: [
      identity('eve', {
        emailAddress: 'Eve@Example.org',
        emailAddressVerified: true,
      }),
      identity('mal', { emailAddress: 'mal@example.org' }),
      identity('dana', {
        userName: 'Dana.Scully',
        accounts: [
          {
            accountId: 'dana-sso',
            accountProviderId: 'acme-sso',
            issuedUserId: 'sso-777',
          },
        ],
      }),
    ],
    // A directory's token, for the tenant whose issuer matches externalIds.
    tokens: id === 'by-external' ? [SCIM] : [],
  });

describe('sign-ins find the identity a directory provisioned (identityMatch)', () => {
  const idp = useLocalIssuer();
  const t = useTestApp(() => ({
    tenants: [
      tenant(idp, 'by-external', { identityMatch: 'externalId' }),
      tenant(idp, 'by-username', { identityMatch: 'userName' }),
      tenant(idp, 'by-account', {
        identityMatch: 'account',
        accountProvider: 'acme-sso',
      }),
      tenant(idp, 'jit-external', {
        identityMatch: 'externalId',
        provisioning: 'jit',
      }),
      tenant(idp, 'jit-account', {
        identityMatch: 'account',
        provisioning: 'jit',
        accountProvider: 'acme-sso',
      }),
      tenant(idp, 'jit-username', {
        identityMatch: 'userName',
        provisioning: 'jit',
      }),
      tenant(idp, 'by-email', {
        identityMatch: 'verifiedEmail',
        identityClaim: 'email',
      }),
      tenant(idp, 'jit-email', {
        identityMatch: 'verifiedEmail',
        identityClaim: 'email',
        provisioning: 'jit',
      }),
    ],
  }));

  const me = async (realm: string, sub: string, path = '') =>
    t
      .as(await idp.sign({ sub }, { realm }))
      .get(`/${realm}/api/identity/v1${path}`);
  const scim = (method: 'post' | 'patch', path: string, body: object) =>
    t
      .http()
      [method](`/by-external/scim/v2${path}`)
      .set('Authorization', `Bearer ${SCIM.token}`)
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
      'must be one of identityId, externalId, userName, account, verifiedEmail',
    ],
    [
      { identityMatch: 'account' },
      'identityMatch',
      '"account" needs an accountProvider',
    ],
  ])('refuses the issuer entry %j', async (issuer, key, message) => {
    const file = tenant(idp, 'refused', issuer);
    const error = await t.tenants.importTenant(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TenantFileError);
    expect((error as TenantFileError).errors).toStrictEqual([
      { field: `tenant.tokenIssuers[0].${key}`, message },
    ]);
  });
  const UUID =
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const created = (tenantId: string) =>
    t.database.prisma.identityEvent.findMany({
      where: { tenantId, type: 'created' },
      select: { identityId: true, fields: true },
    });

  it('jit with externalId: racing first sign-ins create one identity, with a new id and the subject as externalId', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 6 }, () =>
        idp.sign(
          { sub: 'entra-oid-99', name: 'Nia' },
          { realm: 'jit-external' },
        ),
      ),
    );
    const answers = await Promise.all(
      tokens.map((token) => t.as(token).get('/jit-external/api/identity/v1')),
    );
    const ids = new Set(answers.map((r) => r.body.identityId));
    expect(answers.map((r) => r.status)).toStrictEqual(Array(6).fill(200));
    expect(ids.size).toBe(1);
    const [id] = ids;
    expect(id).toMatch(UUID);
    expect(answers[0].body).toMatchObject({
      identityId: id,
      externalId: 'entra-oid-99',
      displayName: 'Nia',
    });
    expect(await created('jit-external')).toStrictEqual([
      { identityId: id, fields: ['displayName', 'externalId'] },
    ]);
  });

  it('jit with account: the new identity’s account at the provider has the subject as issued id, and is current', async () => {
    const first = await me('jit-account', 'sso-555');
    expect(first.status).toBe(200);
    expect(first.body.identityId).toMatch(UUID);
    const accounts = await me('jit-account', 'sso-555', '/accounts');
    expect(accounts.body).toStrictEqual([
      {
        accountProviderId: 'acme-sso',
        signInUrl: 'https://login.acme.example',
        canAddAnotherAccount: false,
        accounts: [
          {
            accountId: expect.stringMatching(UUID),
            issuedUserId: 'sso-555',
            isCurrent: true,
          },
        ],
      },
    ]);
    expect((await me('jit-account', 'sso-555')).body.identityId).toBe(
      first.body.identityId,
    );
    // The identity imported with the account is still found, not created.
    expect((await me('jit-account', 'sso-777')).body.identityId).toBe('dana');
  });

  it('jit with userName: the subject is the new identity’s userName, found again in any case', async () => {
    const token = await idp.sign(
      { sub: 'Zoe.Q', preferred_username: 'someone-else' },
      { realm: 'jit-username' },
    );
    const first = await t.as(token).get('/jit-username/api/identity/v1');
    expect([first.status, first.body.userName]).toStrictEqual([200, 'Zoe.Q']);
    expect(first.body.identityId).toMatch(UUID);
    expect((await me('jit-username', 'zoe.q')).body.identityId).toBe(
      first.body.identityId,
    );
    expect((await me('jit-username', 'DANA.SCULLY')).body.identityId).toBe(
      'dana',
    );
  });
  const asEmail = async (realm: string, email: string, verified: unknown) =>
    t
      .as(
        await idp.sign(
          { sub: 'idp-subject', email, email_verified: verified },
          { realm },
        ),
      )
      .get(`/${realm}/api/identity/v1`);

  it('verifiedEmail: an address the token and the identity both hold verified, in any case', async () => {
    const res = await asEmail('by-email', 'eve@EXAMPLE.org', true);
    expect([res.status, res.body.identityId]).toStrictEqual([200, 'eve']);
    // Not verified by the token (false, a string, absent): 401.
    for (const verified of [false, 'true', undefined])
      expect([
        verified,
        (await asEmail('by-email', 'eve@example.org', verified)).status,
      ]).toStrictEqual([verified, 401]);
    // Not verified on the identity: it names no one.
    expect((await asEmail('by-email', 'mal@example.org', true)).status).toBe(
      401,
    );
  });

  it('verifiedEmail with jit: creates an identity holding the address verified, once', async () => {
    const first = await asEmail('jit-email', 'Zed@Example.org', true);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      identityId: expect.stringMatching(UUID),
      emailAddress: 'Zed@Example.org',
      emailAddresses: ['Zed@Example.org'],
      emailAddressVerified: true,
    });
    expect(
      (await asEmail('jit-email', 'zed@example.org', true)).body.identityId,
    ).toBe(first.body.identityId);
    expect(
      (await asEmail('jit-email', 'eve@example.org', true)).body.identityId,
    ).toBe('eve');
    // Unverified by the token: neither found nor created.
    expect((await asEmail('jit-email', 'new@example.org', false)).status).toBe(
      401,
    );
    expect(
      await t.database.prisma.identity.count({
        where: { tenantId: 'jit-email', emailAddress: 'new@example.org' },
      }),
    ).toBe(0);
  });
});
