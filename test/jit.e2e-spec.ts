import { SignInRepository } from '../src/auth/sign-in.repository';
import { TenantFileError } from '../src/tenants/tenant-file.validator';
import { identity, provider, tenantFile } from './support/factories';
import { AUDIENCE, LocalIssuer, useLocalIssuer } from './support/local-issuer';
import { useTestApp } from './support/test-app';

const SIGN_IN_URL = 'https://login.acme.example/sso';
const AUTH_TIME = Date.UTC(2026, 10, 21, 9, 30, 0, 125) / 1000;

/** A tenant whose one issuer is `realm` of the local issuer. */
const tenant = (idp: LocalIssuer, id: string, issuer: object) =>
  tenantFile({
    id,
    tokenIssuers: [
      {
        issuer: idp.issuer(id),
        audiences: [AUDIENCE],
        accountClaim: 'account',
        ...issuer,
      },
    ],
    accountProviders: [provider('acme-sso', { signInUrl: SIGN_IN_URL })],
    identities: [
      identity('kept', { oldIdentityIds: ['merged-away'], userName: 'Kept' }),
      identity('returning', { lastLogin: '2026-01-01T00:00:00.000' }),
    ],
  });

describe('just-in-time identities from a tenant’s JWT issuer', () => {
  const idp = useLocalIssuer();
  const t = useTestApp(() => ({
    tenants: [
      tenant(idp, 'jit', { provisioning: 'jit', accountProvider: 'acme-sso' }),
      tenant(idp, 'plain', {}),
      tenant(idp, 'race', { provisioning: 'jit' }),
    ],
  }));

  const sign = (realm: string, claims: Record<string, unknown>) =>
    idp.sign(claims, { realm });
  const me = async (
    realm: string,
    claims: Record<string, unknown>,
    status = 200,
  ) =>
    t
      .as(await sign(realm, claims))
      .get(`/${realm}/api/identity/v1`)
      .expect(status);
  const identities = (tenantId: string, identityId: string) =>
    t.database.prisma.identity.count({ where: { tenantId, identityId } });
  const events = (tenantId: string, identityId: string) =>
    t.database.prisma.identityEvent.findMany({
      where: { tenantId, identityId },
      orderBy: { id: 'asc' },
      select: { type: true, fields: true },
    });

  it('creates the identity from the token’s claims on its first request', async () => {
    const claims = {
      sub: 'nora',
      auth_time: AUTH_TIME,
      name: 'Nora Berg',
      preferred_username: 'nora.b',
      given_name: 'Nora',
      family_name: 'Berg',
      email: 'nora@acme.example',
      email_verified: true,
      phone_number: '+47 912 34 567',
      phone_number_verified: false,
      picture: 'https://pictures.acme.example/nora.jpg',
      locale: 'nb_no',
    };
    const picture = ['https://pictures.acme.example/nora.jpg'];
    const expected = {
      identityId: 'nora',
      disabled: false,
      isArchived: false,
      displayName: 'Nora Berg',
      userName: 'nora.b',
      emailAddress: 'nora@acme.example',
      emailAddresses: ['nora@acme.example'],
      emailAddressVerified: true,
      givenName: 'Nora',
      givenNames: ['Nora'],
      surname: 'Berg',
      surnames: ['Berg'],
      locality: 'nb-NO',
      localities: ['nb-NO'],
      mobilePhone: '+47 912 34 567',
      mobilePhoneVerified: false,
      lastLogin: '2026-11-21T09:30:00.125',
      smallPictures: picture,
      mediumPictures: picture,
      largePictures: picture,
      oldIdentityIds: [],
      properties: {},
    };
    expect((await me('jit', claims)).body).toStrictEqual(expected);
    expect((await me('jit', { sub: 'nora' })).body).toStrictEqual(expected);
    expect(await events('jit', 'nora')).toStrictEqual([
      {
        type: 'created',
        fields: [
          'displayName',
          'userName',
          'emailAddress',
          'emailAddresses',
          'emailAddressVerified',
          'givenName',
          'givenNames',
          'surname',
          'surnames',
          'locality',
          'localities',
          'mobilePhone',
          'lastLogin',
          'smallPictures',
          'mediumPictures',
          'largePictures',
        ],
      },
    ]);
  });

  it('creates an identity once for 20 concurrent first requests', async () => {
    // The tenant's first token: all 20 wait for its issuer's keys, then race.
    const token = await sign('race', { sub: 'racer', name: 'Racer' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.as(token).get('/race/api/identity/v1'),
      ),
    );
    expect(answers.map((a) => a.status)).toStrictEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(await identities('race', 'racer')).toBe(1);
    expect(await events('race', 'racer')).toStrictEqual([
      { type: 'created', fields: ['displayName'] },
    ]);
  });

  it.each([
    ['en-us', 'en-US'],
    ['en_US', 'en-US'],
    ['en-US', 'en-US'],
    ['zh-Hant-TW', 'zh-TW'],
    ['de', undefined],
    ['es-419', undefined],
    [42, undefined],
  ])('maps locale %j to locality %j', async (locale, expected) => {
    const sub = `locale-${String(locale).replaceAll('_', '-')}`;
    const { body } = await me('jit', { sub, locale });
    expect(body.locality).toBe(expected);
    expect(body.localities).toStrictEqual(expected ? [expected] : []);
  });

  it('drops claims its fields cannot hold and still accepts the token', async () => {
    const { body } = await me('jit', {
      sub: 'odd',
      name: 42,
      preferred_username: 'a\u0000b',
      given_name: 'x'.repeat(513),
      family_name: ['Berg'],
      email: 'not-an-address',
      email_verified: true,
      phone_number: 'call me maybe',
      phone_number_verified: true,
      picture: 'javascript:alert(1)',
      locale: { language: 'en' },
      auth_time: 'yesterday',
    });
    expect(body).toStrictEqual({
      identityId: 'odd',
      disabled: false,
      isArchived: false,
      emailAddresses: [],
      emailAddressVerified: false,
      givenNames: [],
      surnames: [],
      localities: [],
      mobilePhoneVerified: false,
      oldIdentityIds: [],
      properties: {},
    });
    expect(await events('jit', 'odd')).toStrictEqual([
      { type: 'created', fields: [] },
    ]);
  });

  it('gives the identity an account at the issuer’s provider, current for its token', async () => {
    const token = await sign('jit', {
      sub: 'linked',
      account: 'sso-4711',
      name: 'Linked',
      email: 'linked@acme.example',
    });
    const { body } = await t
      .as(token)
      .get('/jit/api/identity/v1/accounts')
      .expect(200);
    expect(body).toStrictEqual([
      {
        accountProviderId: 'acme-sso',
        signInUrl: SIGN_IN_URL,
        canAddAnotherAccount: false,
        accounts: [
          {
            accountId: 'sso-4711',
            issuedUserId: 'sso-4711',
            isCurrent: true,
            displayName: 'Linked',
            emailAddress: 'linked@acme.example',
          },
        ],
      },
    ]);
  });

  it('creates no account whose id is taken, and still the identity', async () => {
    await me('jit', { sub: 'second', account: 'sso-4711' });
    const accounts = await t.database.prisma.account.findMany({
      where: { tenantId: 'jit', accountId: 'sso-4711' },
      select: { identityId: true },
    });
    expect(accounts).toStrictEqual([{ identityId: 'linked' }]);
  });

  it('creates the identity without a userName another identity has, in any case', async () => {
    const res = await me('jit', {
      sub: 'namesake',
      name: 'Namesake',
      preferred_username: 'KEPT',
    });
    expect(res.body).toStrictEqual({
      identityId: 'namesake',
      disabled: false,
      isArchived: false,
      displayName: 'Namesake',
      emailAddresses: [],
      emailAddressVerified: false,
      givenNames: [],
      surnames: [],
      localities: [],
      mobilePhoneVerified: false,
      oldIdentityIds: [],
      properties: {},
    });
    expect(await events('jit', 'namesake')).toStrictEqual([
      { type: 'created', fields: ['displayName'] },
    ]);
  });

  it.each([
    ['an issuer without provisioning', 'plain', 'stranger'],
    ['a subject that cannot be an identityId', 'jit', 'auth0|12345'],
    ['a reserved identityId', 'jit', 'roles'],
    ['an id merged into another identity', 'jit', 'merged-away'],
  ])('answers 401 and creates nothing for %s', async (_what, realm, sub) => {
    await me(realm, { sub, name: 'Someone' }, 401);
    expect(await identities(realm, sub)).toBe(0);
    expect(await events(realm, sub)).toStrictEqual([]);
  });

  it.each(['jit', 'plain'])(
    'moves lastLogin forward with auth_time, never back (%s issuer)',
    async (realm) => {
      const signIn = (auth_time?: number) =>
        me(realm, { sub: 'returning', auth_time });
      const first = await signIn();
      expect(first.body.lastLogin).toBe('2026-01-01T00:00:00.000');
      const later = await signIn(AUTH_TIME);
      expect(later.body.lastLogin).toBe('2026-11-21T09:30:00.125');
      expect(later.headers.etag).not.toBe(first.headers.etag);
      const again = await signIn(AUTH_TIME);
      const older = await signIn(AUTH_TIME - 3600);
      for (const answer of [again, older]) {
        expect(answer.body.lastLogin).toBe('2026-11-21T09:30:00.125');
        expect(answer.headers.etag).toBe(later.headers.etag);
      }
      expect(await events(realm, 'returning')).toStrictEqual([
        { type: 'imported', fields: ['lastLogin'] },
        { type: 'updated', fields: ['lastLogin'] },
      ]);
    },
  );

  it('never moves lastLogin back, even when asked to by a stale read', async () => {
    const signIns = t.app.get(SignInRepository);
    const at = new Date(AUTH_TIME * 1000);
    await me('plain', { sub: 'returning', auth_time: AUTH_TIME });
    expect(
      await signIns.recordSignIn('plain', 'returning', new Date(0)),
    ).toBeUndefined();
    expect(
      await signIns.recordSignIn('plain', 'returning', at),
    ).toBeUndefined();
    const { body } = await me('plain', { sub: 'returning' });
    expect(body.lastLogin).toBe('2026-11-21T09:30:00.125');
  });

  it('keeps provisioning and accountProvider through export and import', async () => {
    const exported = (await t.tenants.exportTenant('jit')) as {
      tenant: { tokenIssuers: object[] };
    };
    expect(exported.tenant.tokenIssuers).toStrictEqual([
      {
        issuer: idp.issuer('jit'),
        audiences: [AUDIENCE],
        algorithms: ['RS256', 'ES256', 'EdDSA'],
        identityClaim: 'sub',
        identityMatch: 'identityId',
        accountClaim: 'account',
        appIdClaims: ['client_id', 'azp'],
        scopeClaim: 'scope',
        provisioning: 'jit',
        accountProvider: 'acme-sso',
      },
    ]);
    await t.tenants.importTenant(structuredClone(exported), { replace: true });
    expect(await t.tenants.exportTenant('jit')).toStrictEqual(exported);
  });

  it.each([
    [{ provisioning: 'auto' }, 'provisioning', 'must be "jit"'],
    [{ provisioning: true }, 'provisioning', 'must be "jit"'],
    [
      { provisioning: 'jit', accountProvider: 'github' },
      'accountProvider',
      'unknown provider "github"',
    ],
    [
      { accountProvider: 'acme-sso' },
      'accountProvider',
      'is only for provisioning "jit" or identityMatch "account"',
    ],
    [
      {
        provisioning: 'jit',
        accountProvider: 'acme-sso',
        accountClaim: undefined,
      },
      'accountProvider',
      'needs an accountClaim',
    ],
    [
      { provisioning: 'jit', accountProvider: 'acme sso' },
      'accountProvider',
      'must match /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/',
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
