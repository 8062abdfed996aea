import { migrate, readMigrations } from '../src/database/migrator';
import { identity, tenantFile, token, type Token } from './support/factories';
import { LocalOAuthServer } from './support/oauth2-server';
import { Browser } from './support/oidc-op';
import { problemBody as problem } from './support/problem';
import { useTestApp } from './support/test-app';
import { useTestDatabase } from './support/test-database';

// Client secrets of account linking are tenant data, written by a tenant's
// administrator, kept sealed under the operator's key, never shown, and
// sent only to the provider's token endpoint (docs/security.md, client
// secrets). A tenant administrator is the attacker here.

const SERVICE = 'http://127.0.0.1:9';
const TENANT = 'secrets';
const APP = 'https://app.example.test/linked';
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const ANN = token({ identityId: 'ann' });
const AGAIN =
  'must be given again: the link now sends it elsewhere (its type, issuer, tokenEndpoint or clientId changed)';
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('client secrets of account linking', () => {
  const github = new LocalOAuthServer('gh-client', 'the-gh-secret');
  const t = useTestApp({
    tenants: [
      tenantFile({
        id: TENANT,
        linkReturnUrls: [APP],
        identities: [identity('ann')],
        tokens: [ADMIN, ANN],
      }),
    ],
    config: { publicUrl: SERVICE },
  });
  beforeAll(async () => {
    await github.start();
    github.signedIn = { id: 7, login: 'ann-gh', name: 'Ann at GH' };
  });
  afterAll(() => github.stop());

  const admin = (
    method: 'post' | 'put' | 'get',
    path: string,
    body?: object,
  ) => {
    const req = t
      .http()
      [method](`/${TENANT}/api/admin/v1${path}`)
      .set('Authorization', `Bearer ${ADMIN.token}`);
    return body ? req.send(body) : req;
  };
  const link = (extra: object = {}) => ({
    type: 'oauth2',
    authorizationEndpoint: `${github.base}/login/oauth/authorize`,
    tokenEndpoint: `${github.base}/login/oauth/access_token`,
    userInfoEndpoint: `${github.base}/user`,
    clientId: 'gh-client',
    claims: { issuedUserId: 'id', displayName: 'name' },
    ...extra,
  });
  const provider = (id: string, extra: object = {}) => ({
    signInUrl: `https://login.example.test/${id}`,
    link: link(extra),
  });
  /** Links Ann's account at `id` in a browser; the result the app is told. */
  const linkAnn = async (caller: Token, id: string, confirm = true) => {
    const list = await t
      .as(caller.token)
      .get(`/${TENANT}/api/identity/v1/accounts`)
      .expect(200);
    const url = list.body.find(
      (p: { accountProviderId: string }) => p.accountProviderId === id,
    ).signInUrl;
    const browser = new Browser(t, SERVICE);
    let visit = await browser.open(url);
    // To the provider (loopback) and back, until the app is told.
    for (let step = 0; step < 3 && !visit.location!.startsWith(APP); step++)
      visit = await browser.open(visit.location!);
    expect(visit.location!.startsWith(`${APP}?`)).toBe(true);
    const result = Object.fromEntries(new URL(visit.location!).searchParams);
    if (result.result !== 'confirm' || !confirm) return result;
    // The application confirms with the signed-in user's own token.
    const confirmed = await t
      .http()
      .post(`/${TENANT}/api/identity/v1/accounts/link-confirmations`)
      .set('Authorization', `Bearer ${caller.token}`)
      .send({ linkCode: result.linkCode })
      .expect(201);
    return {
      accountProviderId: id,
      result: 'linked',
      accountId: confirmed.body.accountId,
    };
  };

  it('refuses a link that names an environment variable of the service, and sends nothing anywhere', async () => {
    const res = await admin('post', '/account-providers', {
      accountProviderId: 'env',
      ...provider('env', { clientSecretEnv: 'DATABASE_URL' }),
    });
    expect([res.status, res.body]).toStrictEqual([
      400,
      {
        ...problem(
          400,
          'invalid-request',
          'link.clientSecretEnv is not a known field',
        ),
        errors: [
          { field: 'link.clientSecretEnv', message: 'is not a known field' },
        ],
      },
    ]);
    await admin('get', '/account-providers/env').expect(404);
    expect(github.tokenRequests).toStrictEqual([]);
  });

  it('takes a client secret write-only: answers, the audit log and exports say when it was set', async () => {
    const made = await admin('post', '/account-providers', {
      accountProviderId: 'gh',
      ...provider('gh', { clientSecret: 'the-gh-secret' }),
    }).expect(201);
    expect(made.body).toStrictEqual({
      accountProviderId: 'gh',
      signInUrl: 'https://login.example.test/gh',
      allowsMultipleAccounts: false,
      link: { ...link(), clientSecretSetAt: ISO },
    });
    const read = await admin('get', '/account-providers/gh').expect(200);
    expect(read.body).toStrictEqual(made.body);
    const audit = await admin('get', '/events?limit=1000').expect(200);
    expect(JSON.stringify(audit.body)).not.toContain('the-gh-secret');
    expect(audit.body.at(-1)).toMatchObject({
      action: 'provider.created',
      after: {
        link: link(),
        clientSecretSetAt: made.body.link.clientSecretSetAt,
      },
    });
    const exported = await t.tenants.exportTenant(TENANT);
    expect(JSON.stringify(exported)).not.toContain('the-gh-secret');
    expect((exported as any).accountProviders).toStrictEqual([
      { accountProviderId: 'gh', ...made.body, allowsMultipleAccounts: false },
    ]);
    // Sealed in the database: not the secret, and under a key id.
    const [row] = await t.database.prisma.accountProvider.findMany({
      where: { tenantId: TENANT, accountProviderId: 'gh' },
      select: { clientSecret: true },
    });
    expect(row.clientSecret).toMatch(
      /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/,
    );
    expect(row.clientSecret).not.toContain('the-gh-secret');
  });

  it('sends the secret to the provider’s token endpoint, and only there', async () => {
    github.tokenRequests.length = 0;
    expect(await linkAnn(ANN, 'gh')).toStrictEqual({
      accountProviderId: 'gh',
      result: 'linked',
      accountId: expect.any(String),
    });
    expect(
      github.tokenRequests.map((f) => f.get('client_secret')),
    ).toStrictEqual(['the-gh-secret']);
  });

  it('keeps the secret through a change that sends it where it did, and wants it again for one that does not', async () => {
    const before = (await admin('get', '/account-providers/gh').expect(200))
      .body;
    const kept = await admin('put', '/account-providers/gh', {
      ...provider('gh', { scopes: ['read:user'] }),
    }).expect(200);
    expect(kept.body.link.clientSecretSetAt).toBe(
      before.link.clientSecretSetAt,
    );
    // An answer sent back as it is changes nothing.
    await admin('put', '/account-providers/gh', kept.body).expect(200);
    // Another token endpoint, which a tenant admin may control: the
    // stored secret never goes there unless given again.
    for (const changed of [
      { tokenEndpoint: 'https://attacker.example.test/token' },
      { clientId: 'another-client' },
    ]) {
      const res = await admin(
        'put',
        '/account-providers/gh',
        provider('gh', changed),
      );
      expect([res.status, res.body]).toStrictEqual([
        400,
        {
          ...problem(400, 'invalid-request', `link.clientSecret ${AGAIN}`),
          errors: [{ field: 'link.clientSecret', message: AGAIN }],
        },
      ]);
    }
    expect(
      (await admin('get', '/account-providers/gh').expect(200)).body,
    ).toStrictEqual(kept.body);
  });

  it('replaces the secret when given, and removes it with null', async () => {
    const wrong = await admin('put', '/account-providers/gh', {
      ...provider('gh', { clientSecret: 'not-the-secret' }),
    }).expect(200);
    expect(wrong.body.link.clientSecretSetAt).toEqual(ISO);
    github.tokenRequests.length = 0;
    await t.database.prisma.account.deleteMany({ where: { tenantId: TENANT } });
    expect(await linkAnn(ANN, 'gh')).toMatchObject({ error: 'provider_error' });
    expect(
      github.tokenRequests.map((f) => f.get('client_secret')),
    ).toStrictEqual(['not-the-secret']);
    const none = await admin('put', '/account-providers/gh', {
      ...provider('gh', { clientSecret: null }),
    }).expect(200);
    expect(none.body.link).toStrictEqual(link());
    github.tokenRequests.length = 0;
    expect(await linkAnn(ANN, 'gh')).toMatchObject({ error: 'provider_error' });
    expect(
      github.tokenRequests.map((f) => f.get('client_secret')),
    ).toStrictEqual([null]);
  });

  it('records no account a link brought back under settings changed since', async () => {
    await t.database.prisma.account.deleteMany({ where: { tenantId: TENANT } });
    await admin('put', '/account-providers/gh', {
      ...provider('gh', { clientSecret: 'the-gh-secret' }),
    }).expect(200);
    const pending = await linkAnn(ANN, 'gh', false);
    expect(pending.result).toBe('confirm');
    // The provider now links elsewhere (here: other scopes).
    await admin('put', '/account-providers/gh', {
      ...provider('gh', { scopes: ['user:email'] }),
    }).expect(200);
    const res = await t
      .http()
      .post(`/${TENANT}/api/identity/v1/accounts/link-confirmations`)
      .set('Authorization', `Bearer ${ANN.token}`)
      .send({ linkCode: (pending as Record<string, string>).linkCode });
    expect([res.status, res.body.type]).toStrictEqual([
      404,
      'urn:problem:identity:link-not-found',
    ]);
    expect(
      await t.database.prisma.account.count({ where: { tenantId: TENANT } }),
    ).toBe(0);
  });

  it('refuses a secret that is not one, and changes nothing', async () => {
    for (const secret of ['', 'tab\there', 'x'.repeat(1025), 'é', 42]) {
      const res = await admin('post', '/account-providers', {
        accountProviderId: 'bad',
        ...provider('bad', { clientSecret: secret }),
      });
      expect([res.status, res.body.errors]).toStrictEqual([
        400,
        [
          {
            field: 'link.clientSecret',
            message:
              'must be 1 to 1024 printable ASCII characters (an OAuth 2.0 client secret)',
          },
        ],
      ]);
    }
    await admin('get', '/account-providers/bad').expect(404);
  });

  it('opens a secret only for the tenant and provider it was sealed for', async () => {
    await admin('put', '/account-providers/gh', {
      ...provider('gh', { clientSecret: 'the-gh-secret' }),
    }).expect(200);
    await admin('post', '/account-providers', {
      accountProviderId: 'copy',
      ...provider('copy', { clientSecret: 'something-else' }),
    }).expect(201);
    const [gh] = await t.database.prisma.accountProvider.findMany({
      where: { tenantId: TENANT, accountProviderId: 'gh' },
    });
    await t.database.prisma.accountProvider.update({
      where: {
        tenantId_accountProviderId: {
          tenantId: TENANT,
          accountProviderId: 'copy',
        },
      },
      data: { clientSecret: gh.clientSecret },
    });
    github.tokenRequests.length = 0;
    expect(await linkAnn(ANN, 'copy')).toMatchObject({
      error: 'provider_error',
    });
    expect(github.tokenRequests).toStrictEqual([]);
  });
});

describe('a client secret without an operator key', () => {
  const t = useTestApp({
    tenants: [tenantFile({ id: 'nokey', tokens: [ADMIN] })],
    config: {
      secretKeys: { kind: 'none' },
    },
  });

  it('is refused with 409, and nothing is written', async () => {
    const res = await t
      .http()
      .post('/nokey/api/admin/v1/account-providers')
      .set('Authorization', `Bearer ${ADMIN.token}`)
      .send({
        accountProviderId: 'gh',
        signInUrl: 'https://login.example.test/gh',
        link: {
          type: 'oidc',
          issuer: 'https://login.example.test/',
          clientId: 'c',
          clientSecret: 's3cret',
        },
      });
    expect([res.status, res.body]).toStrictEqual([
      409,
      problem(
        409,
        'no-secret-key',
        'The service holds no key to seal client secrets with; its operator sets SECRET_KEYS or SECRET_KEYS_FILE.',
      ),
    ]);
    await t
      .as(ADMIN.token)
      .get('/nokey/api/admin/v1/account-providers/gh')
      .expect(404);
  });
});

describe('the upgrade from a client secret named by an environment variable', () => {
  const database = useTestDatabase({ migrateOnStart: false }, { empty: true });

  it('drops the variable’s name and keeps the rest of the link settings', async () => {
    const all = readMigrations();
    const at = all.findIndex((m) => m.name.endsWith('_client_secrets'));
    const link = { type: 'oidc', issuer: 'https://op.example/', clientId: 'c' };
    const links = await database.withSession(async (s) => {
      await migrate(s, all.slice(0, at));
      await s.query(`INSERT INTO tenant (id, name) VALUES ('old', 'Old')`);
      await s.query(
        `INSERT INTO account_provider (tenant_id, account_provider_id, position, sign_in_url, link)
         VALUES ('old', 'env', 0, 'https://op.example/', $1), ('old', 'none', 1, 'https://op.example/', $2)`,
        [
          JSON.stringify({ ...link, clientSecretEnv: 'DATABASE_URL' }),
          JSON.stringify(link),
        ],
      );
      await migrate(s, all);
      return s.query<{ link: unknown; client_secret: unknown }>(
        'SELECT link, client_secret FROM account_provider ORDER BY position',
      );
    });
    expect(links).toStrictEqual([
      { link, client_secret: null },
      { link, client_secret: null },
    ]);
  });
});
