import { IdentityService } from '../src/identity/identity.service';
import { generatedTenant } from './support/generated-tenant';
import { TenantFileError } from '../src/tenants/tenant-file.validator';
import { example, TOKENS } from './support/example';
import { snapshot, tenantRows } from './support/snapshot';
import { TestApp, useTestApp } from './support/test-app';

async function importErrors(t: TestApp, file: unknown, replace = false) {
  try {
    await t.tenants.importTenant(file, { replace });
  } catch (error) {
    if (error instanceof TenantFileError)
      return error.errors.map((e) => `${e.field}: ${e.message}`);
    throw error;
  }
  throw new Error('the import was accepted');
}

describe('tenant import and export', () => {
  const t = useTestApp({ tenants: [example()] });

  it('stores only hashes of token secrets', async () => {
    const tokens = await t.database.prisma.token.findMany();
    expect(tokens).toHaveLength(8);
    for (const token of tokens) {
      expect(token.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.values(TOKENS)).not.toContain(token.tokenHash);
    }
  });

  it('refuses an existing tenant without replace and changes nothing', async () => {
    const before = await snapshot(t.database);
    expect(await importErrors(t, example())).toStrictEqual([
      'tenant.id: tenant "example" exists already; import with --replace to replace it',
    ]);
    expect(await snapshot(t.database)).toStrictEqual(before);
  });

  it('replaces a tenant with exactly what the file says, leaving other tenants alone', async () => {
    const original = example();
    original.tenant.id = 'replaced';
    original.tokens = [
      { token: 'replaced-ada-token-00001', type: 'access', identityId: 'ada' },
    ];
    await t.tenants.importTenant(original);
    const bystander = await snapshot(t.database);
    const file = example();
    file.tenant.id = 'replaced';
    file.identities = [{ identityId: 'only', displayName: 'Only One' }];
    file.tokens = [
      {
        token: 'only-app-token-00000001',
        type: 'app',
        appId: 'a',
        scopes: ['identities:read'],
      },
    ];
    const summary = await t.tenants.importTenant(file, { replace: true });
    expect(summary).toStrictEqual({
      tenantId: 'replaced',
      replaced: true,
      identities: 1,
      accounts: 0,
      friendships: 0,
      tokens: 1,
      removedIdentities: 4,
      removedTokens: 1,
      keptTokens: 0,
    });
    const ids = await t.database.prisma.identity.findMany({
      where: { tenantId: 'replaced' },
      select: { identityId: true },
    });
    expect(ids).toStrictEqual([{ identityId: 'only' }]);
    await t
      .as('replaced-ada-token-00001')
      .get('/replaced/api/identity/v1')
      .expect(401);
    const untouched = await snapshot(t.database);
    expect(tenantRows('example', untouched)).toStrictEqual(
      tenantRows('example', bystander),
    );
  });

  it('keeps on a replace the tokens the file does not list, and the Group ids of roles still there', async () => {
    const original = example();
    original.tenant.id = 'kept';
    original.tokens = [
      { token: 'kept-ada-token-0000001', type: 'access', identityId: 'ada' },
      { token: 'kept-mary-token-000001', type: 'access', identityId: 'mary' },
      {
        token: 'kept-scim-token-000001',
        type: 'app',
        appId: 'directory',
        scopes: ['scim:provision'],
      },
    ];
    await t.tenants.importTenant(original);
    const groupIds = async () =>
      (
        await t.database.prisma.role.findMany({
          where: { tenantId: 'kept' },
          select: { name: true, id: true },
          orderBy: { name: 'asc' },
        })
      ).map((r) => `${r.name}:${r.id}`);
    const groupsBefore = await groupIds();
    expect(groupsBefore.length).toBeGreaterThan(0);
    // The same people, mary gone, no tokens listed.
    const file = example();
    file.tenant.id = 'kept';
    file.identities = file.identities.filter(
      (i: { identityId: string }) => i.identityId !== 'mary',
    );
    for (const identity of file.identities)
      identity.friends = (identity.friends ?? []).filter(
        (f: string) => f !== 'mary',
      );
    delete file.tokens;
    const notices: object[] = [];
    const summary = await t.tenants.importTenant(file, {
      replace: true,
      beforeReplace: (n) => notices.push(n),
    });
    expect(notices).toStrictEqual([
      {
        tenantId: 'kept',
        removedIdentities: ['mary'],
        removedTokens: 1,
        keptTokens: 2,
      },
    ]);
    expect(summary).toMatchObject({
      removedIdentities: 1,
      removedTokens: 1,
      keptTokens: 2,
    });
    await t
      .as('kept-ada-token-0000001')
      .get('/kept/api/identity/v1')
      .expect(200);
    await t
      .as('kept-scim-token-000001')
      .get('/kept/scim/v2/Groups')
      .expect(200);
    await t
      .as('kept-mary-token-000001')
      .get('/kept/api/identity/v1')
      .expect(401);
    expect(await groupIds()).toStrictEqual(groupsBefore);
    // Asked to, a replace makes the tokens exactly the file's.
    await t.tenants.importTenant(file, { replace: true, replaceTokens: true });
    await t
      .as('kept-ada-token-0000001')
      .get('/kept/api/identity/v1')
      .expect(401);
    await t
      .as('kept-scim-token-000001')
      .get('/kept/scim/v2/Groups')
      .expect(401);
  });

  it('exports one snapshot: identities deleted during an export never leave a torn file', async () => {
    await t.tenants.importTenant(generatedTenant('torn', 200));
    const identities = t.app.get(IdentityService);
    const ids = Array.from(
      { length: 50 },
      (_, i) => `user-${String(i * 2).padStart(6, '0')}`,
    );
    let deleting = true;
    const deleter = (async () => {
      for (const id of ids) await identities.deleteIdentity('torn', id);
      deleting = false;
    })();
    const torn: string[] = [];
    let exports = 0;
    while (deleting || exports === 0) {
      const file = (await t.tenants.exportTenant('torn')) as {
        identities: { identityId: string; friends?: string[] }[];
      };
      exports++;
      const present = new Set(file.identities.map((i) => i.identityId));
      for (const identity of file.identities)
        for (const friend of identity.friends ?? [])
          if (!present.has(friend))
            torn.push(`${identity.identityId}→${friend}`);
    }
    await deleter;
    expect(exports).toBeGreaterThan(1);
    expect(torn).toStrictEqual([]);
  });

  it('round-trips export → import', async () => {
    const exported = (await t.tenants.exportTenant('example')) as {
      tenant: object;
      identities: Record<string, unknown>[];
    };
    const again = await t.newTenant(exported);
    expect(await t.tenants.exportTenant(again.id)).toStrictEqual({
      ...exported,
      tenant: { ...exported.tenant, id: again.id },
    });
    const ada = exported.identities.find((i) => i.identityId === 'ada');
    expect(ada).toStrictEqual({
      ...example().identities[0],
      disabled: false,
      isArchived: false,
      friends: ['charles', 'mary'],
    });
  });

  it.each([
    ['a missing tenant', (f: any) => delete f.tenant, 'tenant: is required'],
    [
      'a bad tenant id',
      (f: any) => (f.tenant.id = 'Bad_Id'),
      'tenant.id: must match /^[a-z0-9][a-z0-9-]{0,62}$/',
    ],
    [
      'an empty tenant name',
      (f: any) => (f.tenant.name = ''),
      'tenant.name: must be 1 to 200 characters',
    ],
    [
      'an unknown top-level key',
      (f: any) => (f.extra = 1),
      'extra: is not a known field',
    ],
    [
      'an unknown identity key',
      (f: any) => (f.identities[1].nickname = 'x'),
      'identities[1].nickname: is not a known field',
    ],
    [
      'a prototype-pollution key',
      (f: any) =>
        (f.identities[0].properties = JSON.parse('{"__proto__":{"x":"1"}}')),
      'identities[0].properties.__proto__: is not an allowed key',
    ],
    [
      'an unknown provider',
      (f: any) => (f.identities[0].accounts[0].accountProviderId = 'gitlab'),
      'identities[0].accounts[0].accountProviderId: unknown provider "gitlab"',
    ],
    [
      'a duplicate provider',
      (f: any) => f.accountProviders.push({ ...f.accountProviders[0] }),
      'accountProviders[3].accountProviderId: duplicate provider "password"',
    ],
    [
      'a provider without signInUrl',
      (f: any) => delete f.accountProviders[1].signInUrl,
      'accountProviders[1].signInUrl: is required',
    ],
    [
      'a non-http provider image',
      (f: any) => (f.accountProviders[1].providerImageUrl = 'ftp://x/y.png'),
      'accountProviders[1].providerImageUrl: must be an absolute http(s) URL',
    ],
    [
      'a bad provider id',
      (f: any) => (f.accountProviders[0].accountProviderId = '-x'),
      'accountProviders[0].accountProviderId: must match /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/',
    ],
    [
      'a duplicate identity',
      (f: any) => (f.identities[1].identityId = 'ada'),
      'identities[1].identityId: duplicate identity "ada"',
    ],
    [
      'a reserved identity id',
      (f: any) => (f.identities[2].identityId = 'friends'),
      'identities[2].identityId: "friends" is reserved',
    ],
    [
      'a bad identity id',
      (f: any) => (f.identities[2].identityId = 'has space'),
      'identities[2].identityId: must match /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/',
    ],
    [
      'a bad e-mail address',
      (f: any) => (f.identities[0].emailAddress = 'not-an-address'),
      'identities[0].emailAddress: must be an e-mail address',
    ],
    [
      'a bad locality',
      (f: any) => (f.identities[0].locality = 'en_GB'),
      'identities[0].locality: must be a locality of the form xx-XX (ISO 639-1 language, ISO 3166-1 country)',
    ],
    [
      'a bad picture URL',
      (f: any) => (f.identities[0].smallPictures = ['/relative.jpg']),
      'identities[0].smallPictures: each item must be an absolute http(s) URL',
    ],
    [
      'a bad lastLogin',
      (f: any) => (f.identities[0].lastLogin = '2026-02-30T00:00:00.000'),
      'identities[0].lastLogin: must be a UTC date and time of the form YYYY-MM-DDThh:mm:ss.fff',
    ],
    [
      'a lastLogin with an offset',
      (f: any) => (f.identities[0].lastLogin = '2026-01-01T00:00:00.000+01:00'),
      'identities[0].lastLogin: must be a UTC date and time of the form YYYY-MM-DDThh:mm:ss.fff',
    ],
    [
      'a non-boolean flag',
      (f: any) => (f.identities[0].disabled = 'no'),
      'identities[0].disabled: must be true or false',
    ],
    [
      'a null value',
      (f: any) => (f.identities[0].displayName = null),
      'identities[0].displayName: must be a string',
    ],
    [
      'a non-string property',
      (f: any) => (f.identities[0].properties = { a: 1 }),
      'identities[0].properties: must be an object whose values are strings (no U+0000 or lone surrogate)',
    ],
    [
      'an unknown friend',
      (f: any) => f.identities[0].friends.push('nobody'),
      'identities[0].friends[2]: unknown identity "nobody"',
    ],
    [
      'a self-friendship',
      (f: any) => f.identities[0].friends.push('ada'),
      'identities[0].friends[2]: an identity cannot be its own friend',
    ],
    [
      'a duplicate account id',
      (f: any) => (f.identities[1].accounts[0].accountId = 'acc-ada-password'),
      'identities[1].accounts[0].accountId: duplicate account "acc-ada-password"',
    ],
    [
      'a duplicate issued user id',
      (f: any) =>
        (f.identities[0].accounts[2].issuedUserId = '108234567890123456789'),
      'identities[0].accounts[2].issuedUserId: "108234567890123456789" is already used at provider "google"',
    ],
    [
      'two accounts at a single-account provider',
      (f: any) =>
        f.identities[0].accounts.push({
          accountProviderId: 'password',
          issuedUserId: 'ada2',
        }),
      'identities[0].accounts[3].accountProviderId: provider "password" allows one account per identity',
    ],
    [
      'a short token',
      (f: any) => (f.tokens[0].token = 'short'),
      'tokens[0].token: must be 20 to 512 characters of [A-Za-z0-9._~+/-]',
    ],
    [
      'a duplicate token',
      (f: any) => (f.tokens[1].token = f.tokens[0].token),
      'tokens[1].token: duplicate token',
    ],
    [
      'an unknown token type',
      (f: any) => (f.tokens[0].type = 'refresh'),
      'tokens[0].type: must be "access" or "app"',
    ],
    [
      'an access token without identity',
      (f: any) => delete f.tokens[0].identityId,
      'tokens[0].identityId: is required for an access token',
    ],
    [
      'an access token of an unknown identity',
      (f: any) => (f.tokens[0].identityId = 'nobody'),
      'tokens[0].identityId: unknown identity "nobody"',
    ],
    [
      'an access token with another identity’s account',
      (f: any) => (f.tokens[0].accountId = 'acc-charles-github'),
      'tokens[0].accountId: "acc-charles-github" is not an account of identity "ada"',
    ],
    [
      'an app token without appId',
      (f: any) => delete f.tokens[5].appId,
      'tokens[5].appId: is required for an app token',
    ],
    [
      'an unknown scope',
      (f: any) => (f.tokens[5].scopes = ['identities:write']),
      'tokens[5].scopes: each item must be one of identities:read, identities:delete, scim:provision, accounts:write, friends:write, tenant:admin',
    ],
    [
      'a bad expiry',
      (f: any) => (f.tokens[4].expiresAt = 'soon'),
      'tokens[4].expiresAt: must be an ISO 8601 date and time',
    ],
  ])(
    'rejects %s, naming its path, and changes nothing',
    async (_name, breakIt, message) => {
      const before = await snapshot(t.database);
      const file = example();
      file.tenant.id = 'fresh';
      (breakIt as (f: any) => unknown)(file);
      const errors = await importErrors(t, file);
      expect(errors).toContain(message);
      expect(await snapshot(t.database)).toStrictEqual(before);
    },
  );

  it('rejects a file that is not an object', async () => {
    expect(await importErrors(t, [])).toStrictEqual([
      '$: must be a JSON object',
    ]);
  });

  it('normalizes primary values into their lists and makes friendship mutual', async () => {
    await t.tenants.importTenant({
      tenant: { id: 'norm', name: 'N' },
      identities: [
        {
          identityId: 'p',
          emailAddress: 'p@x.example',
          emailAddresses: ['q@x.example'],
          givenName: 'P',
          locality: 'de-DE',
          friends: ['q'],
        },
        { identityId: 'q' },
      ],
    });
    const p = await t.database.prisma.identity.findUniqueOrThrow({
      where: { tenantId_identityId: { tenantId: 'norm', identityId: 'p' } },
    });
    expect([p.emailAddresses, p.givenNames, p.localities]).toStrictEqual([
      ['p@x.example', 'q@x.example'],
      ['P'],
      ['de-DE'],
    ]);
    const friendships = await t.database.prisma.friendship.findMany({
      where: { tenantId: 'norm' },
      orderBy: { identityId: 'asc' },
      select: { identityId: true, friendId: true },
    });
    expect(friendships).toStrictEqual([
      { identityId: 'p', friendId: 'q' },
      { identityId: 'q', friendId: 'p' },
    ]);
  });
});
