import { createHash } from 'node:crypto';
import { Prisma } from '../src/generated/prisma/client';
import { identity, tenantFile, token, type Token } from './support/factories';
import { LocalOAuthServer } from './support/oauth2-server';
import { Browser, LocalOpenIdProvider } from './support/oidc-op';
import { problemBody as problem } from './support/problem';
import { startTestApp, TestApp } from './support/test-app';

// The service's address as browsers reach it in these tests: never
// requested by HTTP, the test browser hands its URLs to the test app.
const SERVICE = 'http://127.0.0.1:9';
const TENANT = 'link';
const CALLBACK = `${SERVICE}/${TENANT}/link/v1/callback`;
const APP = 'https://app.example.test/accounts/linked';
const OTHER_APP = 'https://app.example.test/settings';
const SECRET_VARIABLE = 'IDENTITY_TEST_LINK_SECRET';

const ANN = token({ identityId: 'ann' });
const BOB = token({ identityId: 'bob' });
const CRM = token({ appId: 'crm', scopes: ['identities:read'] });

describe('linking an account through signInUrl (OpenID Connect)', () => {
  const op = new LocalOpenIdProvider(
    {
      clientId: 'identity-service',
      clientSecret: 'link-client-secret',
      redirectUris: [CALLBACK],
    },
    [{ clientId: 'attacker-app', redirectUris: [CALLBACK] }],
  );
  const github = new LocalOAuthServer('gh-client', 'gh-secret');
  let t: TestApp;

  beforeAll(async () => {
    process.env[SECRET_VARIABLE] = 'link-client-secret';
    process.env[`${SECRET_VARIABLE}_GH`] = 'gh-secret';
    await op.start();
    await github.start();
    const file = tenantFile({
      id: TENANT,
      linkReturnUrls: [APP, OTHER_APP],
      accountProviders: [
        {
          accountProviderId: 'op',
          displayName: 'Local OP',
          signInUrl: 'https://op.example/configured',
          allowsMultipleAccounts: true,
          link: {
            type: 'oidc',
            issuer: op.base,
            clientId: 'identity-service',
            clientSecretEnv: SECRET_VARIABLE,
          },
        },
        {
          accountProviderId: 'one',
          signInUrl: 'https://one.example/configured',
          link: {
            type: 'oidc',
            issuer: op.base,
            clientId: 'identity-service',
            clientSecretEnv: SECRET_VARIABLE,
          },
        },
        { accountProviderId: 'plain', signInUrl: 'https://plain.example/' },
        {
          accountProviderId: 'github',
          signInUrl: 'https://github.example/configured',
          link: {
            type: 'oauth2',
            authorizationEndpoint: `${github.base}/login/oauth/authorize`,
            tokenEndpoint: `${github.base}/login/oauth/access_token`,
            userInfoEndpoint: `${github.base}/user`,
            clientId: 'gh-client',
            clientSecretEnv: `${SECRET_VARIABLE}_GH`,
            scopes: ['read:user'],
            claims: {
              issuedUserId: 'id',
              displayName: 'name',
              pictureUrl: 'avatar_url',
              accountProfileUrl: 'html_url',
            },
          },
        },
      ],
      identities: [
        identity('ann', { roles: ['admin'] }),
        identity('bob', {
          accounts: [
            {
              accountId: 'bob-one',
              accountProviderId: 'one',
              issuedUserId: 'b1',
            },
          ],
        }),
      ],
      tokens: [ANN, BOB, CRM],
    });
    t = await startTestApp([file], { publicUrl: SERVICE });
  });
  afterAll(async () => {
    await t.close();
    await op.stop();
    await github.stop();
    delete process.env[SECRET_VARIABLE];
    delete process.env[`${SECRET_VARIABLE}_GH`];
  });

  const accounts = (caller: Token, path = '/accounts') =>
    t.as(caller.token).get(`/${TENANT}/api/identity/v1${path}`).expect(200);
  const signInUrl = async (caller: Token, provider: string) =>
    (await accounts(caller)).body.find(
      (p: { accountProviderId: string }) => p.accountProviderId === provider,
    ).signInUrl as string;
  const result = (url: string) => Object.fromEntries(new URL(url).searchParams);

  it('gives the identity itself a link URL, and everyone else the configured one', async () => {
    const own = await accounts(ANN);
    expect(own.body.map((p: any) => p.signInUrl)).toStrictEqual([
      expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:9\/link\/link\/v1\/op\/start\?ticket=[A-Za-z0-9_-]+\.\d+\.0\.[A-Za-z0-9_-]{43}$/,
      ),
      expect.stringMatching(/\/link\/link\/v1\/one\/start\?ticket=/),
      'https://plain.example/',
      expect.stringMatching(/\/link\/link\/v1\/github\/start\?ticket=/),
    ]);
    // The same list in the same minutes: the same URL, and a 304.
    await t
      .as(ANN.token)
      .get(`/${TENANT}/api/identity/v1/accounts`)
      .set('If-None-Match', own.headers.etag)
      .expect(304);
    // An app (or an admin) reading Ann's accounts links nothing for her.
    const seen = await accounts(CRM, '/ann/accounts');
    expect(seen.body.map((p: any) => p.signInUrl)).toStrictEqual([
      'https://op.example/configured',
      'https://one.example/configured',
      'https://plain.example/',
      'https://github.example/configured',
    ]);
  });

  it('links the account signed in at the provider, then sends the browser to the app', async () => {
    const browser = new Browser(t, SERVICE);
    const start = await browser.open(await signInUrl(ANN, 'op'));
    expect(start.status).toBe(303);
    const authorize = new URL(start.location!);
    expect(authorize.origin).toBe(op.base);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'identity-service',
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const back = await browser.signInAt(start.location!, 'ann-at-op');
    expect(back.startsWith(`${CALLBACK}?`)).toBe(true);
    const done = await browser.open(back);
    expect(done.status).toBe(303);
    const linked = result(done.location!);
    expect(done.location!.startsWith(`${APP}?`)).toBe(true);
    expect(linked).toStrictEqual({
      accountProviderId: 'op',
      result: 'linked',
      accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const list = (await accounts(ANN)).body;
    expect(list[0].accounts).toStrictEqual([
      {
        accountId: linked.accountId,
        issuedUserId: 'ann-at-op',
        isCurrent: false,
        displayName: 'Name of ann-at-op',
        emailAddress: 'ann-at-op@op.example',
        pictureUrl: 'https://op.example/ann-at-op.png',
      },
    ]);
    // The callback again: its state is spent.
    const again = await browser.open(back);
    expect(result(again.location!)).toStrictEqual({
      accountProviderId: 'op',
      result: 'error',
      error: 'expired',
    });
  });

  it('starts one link per ticket; the list then gives a fresh one', async () => {
    const url = await signInUrl(ANN, 'op');
    const browser = new Browser(t, SERVICE);
    expect((await browser.open(url)).status).toBe(303);
    const replayed = await browser.open(url);
    expect(replayed.location!.startsWith(`${APP}?`)).toBe(true);
    expect(result(replayed.location!)).toStrictEqual({
      accountProviderId: 'op',
      result: 'error',
      error: 'expired',
    });
    const fresh = await signInUrl(ANN, 'op');
    expect(fresh).not.toBe(url);
    expect(new URL((await browser.open(fresh)).location!).origin).toBe(op.base);
  });

  it('refuses an account that is another identity’s, and a second one where one is allowed', async () => {
    const bob = new Browser(t, SERVICE);
    const start = await bob.open(await signInUrl(BOB, 'op'));
    const done = await bob.open(
      await bob.signInAt(start.location!, 'ann-at-op'),
    );
    expect(result(done.location!)).toStrictEqual({
      accountProviderId: 'op',
      result: 'error',
      error: 'account_in_use',
    });
    const one = await bob.open(await signInUrl(BOB, 'one'));
    const second = await bob.open(await bob.signInAt(one.location!, 'bob-two'));
    expect(result(second.location!)).toStrictEqual({
      accountProviderId: 'one',
      result: 'error',
      error: 'limit_reached',
    });
    const list = (await accounts(BOB)).body;
    expect(list.map((p: any) => p.accounts.length)).toStrictEqual([0, 1, 0, 0]);
  });

  it('says access_denied when the user refuses at the provider', async () => {
    const browser = new Browser(t, SERVICE);
    const start = await browser.open(await signInUrl(BOB, 'op'));
    const back = await browser.signInAt(start.location!, 'bob-at-op', {
      deny: true,
    });
    const done = await browser.open(back);
    expect(result(done.location!)).toStrictEqual({
      accountProviderId: 'op',
      result: 'error',
      error: 'access_denied',
    });
  });

  it('sends the browser only to an allowed return URL, and takes nothing forged', async () => {
    const url = new URL(await signInUrl(ANN, 'op'));
    const browser = new Browser(t, SERVICE);
    url.searchParams.set('redirect_uri', 'https://evil.example/');
    const refused = await browser.open(url.href);
    expect([refused.status, JSON.parse(refused.body)]).toStrictEqual([
      400,
      {
        ...problem(
          400,
          'invalid-request',
          'redirect_uri is not one of the tenant’s return URLs.',
        ),
        errors: [
          { field: 'redirect_uri', message: 'is not an allowed return URL' },
        ],
      },
    ]);
    // The refused request spent nothing: the ticket still starts a link,
    // and the browser goes where the app asked.
    url.searchParams.set('redirect_uri', OTHER_APP);
    const started = await browser.open(url.href);
    expect(new URL(started.location!).origin).toBe(op.base);
    // A ticket whose identity is swapped fails its signature.
    const forged = new URL(await signInUrl(ANN, 'op'));
    const ticket = forged.searchParams.get('ticket')!.split('.');
    ticket[0] = Buffer.from('bob').toString('base64url');
    forged.searchParams.set('ticket', ticket.join('.'));
    expect(result((await browser.open(forged.href)).location!)).toMatchObject({
      error: 'expired',
    });
    // A callback with a state that started nothing is refused outright.
    const unknown = await browser.open(`${CALLBACK}?state=made-up&code=x`);
    expect(unknown.status).toBe(400);
  });

  it('links through a plain OAuth 2.0 provider, its user info mapped as configured', async () => {
    github.signedIn = {
      id: 4711,
      login: 'octo',
      name: 'Octo Cat',
      avatar_url: 'https://github.example/octo.png',
      html_url: 'https://github.example/octo',
    };
    const browser = new Browser(t, SERVICE);
    const start = await browser.open(await signInUrl(ANN, 'github'));
    const authorize = new URL(start.location!);
    expect(authorize.origin + authorize.pathname).toBe(
      `${github.base}/login/oauth/authorize`,
    );
    expect(authorize.searchParams.get('scope')).toBe('read:user');
    expect(authorize.searchParams.has('nonce')).toBe(false);
    const back = await browser.open(start.location!);
    const done = await browser.open(back.location!);
    const linked = result(done.location!);
    expect(linked).toMatchObject({
      accountProviderId: 'github',
      result: 'linked',
    });
    const list = (await accounts(ANN)).body;
    expect(list[3].accounts).toStrictEqual([
      {
        accountId: linked.accountId,
        issuedUserId: '4711',
        isCurrent: false,
        displayName: 'Octo Cat',
        pictureUrl: 'https://github.example/octo.png',
        accountProfileUrl: 'https://github.example/octo',
      },
    ]);
    // The user refuses: access_denied; nothing is recorded.
    github.signedIn = null;
    const refused = await browser.open(await signInUrl(BOB, 'github'));
    const denied = await browser.open(
      (await browser.open(refused.location!)).location!,
    );
    expect(result(denied.location!)).toStrictEqual({
      accountProviderId: 'github',
      result: 'error',
      error: 'access_denied',
    });
  });

  it('links nothing when the ID token’s nonce, the code’s PKCE verifier or the code’s client is not the attempt’s', async () => {
    const browser = new Browser(t, SERVICE);
    // The nonce the attempt holds is no longer the one the provider signed.
    const start = await browser.open(await signInUrl(BOB, 'op'));
    const state = new URL(start.location!).searchParams.get('state')!;
    await t.database.prisma.$executeRaw(
      Prisma.sql`UPDATE link_attempt SET nonce = 'another-nonce' WHERE state = ${state}`,
    );
    const back = await browser.signInAt(start.location!, 'bob-nonce');
    expect(result((await browser.open(back)).location!)).toStrictEqual({
      accountProviderId: 'op',
      result: 'error',
      error: 'provider_error',
    });
    // A code delivered with another attempt's state: that attempt's PKCE
    // verifier does not match, and the code is spent for nothing.
    const first = await browser.open(await signInUrl(BOB, 'op'));
    const second = await browser.open(await signInUrl(BOB, 'op'));
    const code = new URL(
      await browser.signInAt(first.location!, 'bob-swapped'),
    ).searchParams.get('code')!;
    const swapped = new URL(CALLBACK);
    swapped.searchParams.set('code', code);
    swapped.searchParams.set(
      'state',
      new URL(second.location!).searchParams.get('state')!,
    );
    swapped.searchParams.set('iss', op.base);
    expect(result((await browser.open(swapped.href)).location!)).toMatchObject({
      error: 'provider_error',
    });
    // A code issued to another client of the provider (the attacker's
    // application), delivered with a real attempt's state: the provider
    // refuses to give the service a token for it.
    const attacker = new URL(`${op.base}/auth`);
    const verifier = 'attacker-verifier-attacker-verifier-attacker-v';
    for (const [key, value] of Object.entries({
      client_id: 'attacker-app',
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid',
      state: 'attacker',
      nonce: 'attacker',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      attacker.searchParams.set(key, value);
    const stolen = new URL(
      await new Browser(t, SERVICE).signInAt(attacker.href, 'bob-attacked'),
    ).searchParams.get('code')!;
    const victim = await browser.open(await signInUrl(BOB, 'op'));
    const injected = new URL(CALLBACK);
    injected.searchParams.set('code', stolen);
    injected.searchParams.set(
      'state',
      new URL(victim.location!).searchParams.get('state')!,
    );
    expect(result((await browser.open(injected.href)).location!)).toMatchObject(
      {
        error: 'provider_error',
      },
    );
    expect(
      (await accounts(BOB)).body.map((p: any) => p.accounts.length),
    ).toStrictEqual([0, 1, 0, 0]);
  });

  it('keeps link settings by the tenant file’s rules, and a client secret only as a variable’s name', async () => {
    const bad = {
      tenant: { id: 'link-bad', name: 'Bad', linkReturnUrls: ['nope'] },
      accountProviders: [
        {
          accountProviderId: 'a',
          signInUrl: 'https://a.example/',
          link: {
            type: 'oidc',
            clientId: 'c',
            tokenEndpoint: 'https://a.example/token',
            clientSecretEnv: 'lower-case',
          },
        },
        {
          accountProviderId: 'b',
          signInUrl: 'https://b.example/',
          link: {
            type: 'oauth2',
            issuer: 'http://169.254.169.254/',
            clientId: 'c',
            scopes: ['has space'],
          },
        },
      ],
    };
    await expect(t.tenants.importTenant(bad)).rejects.toMatchObject({
      errors: [
        {
          field: 'tenant.linkReturnUrls',
          message: 'each item must be an absolute http(s) URL',
        },
        {
          field: 'accountProviders[0].link.clientSecretEnv',
          message: 'must match /^[A-Z_][A-Z0-9_]{0,127}$/',
        },
        {
          field: 'accountProviders[1].link.issuer',
          message:
            'must not name a link-local address or a cloud metadata service',
        },
        {
          field: 'accountProviders[1].link.scopes',
          message:
            'each item must be an OAuth 2.0 scope (1 to 200 characters, no space)',
        },
      ],
    });
    bad.tenant.linkReturnUrls = [APP];
    bad.accountProviders[0].link.clientSecretEnv = 'A_SECRET';
    bad.accountProviders[1].link = {
      type: 'oauth2',
      clientId: 'c',
    } as (typeof bad.accountProviders)[1]['link'];
    await expect(t.tenants.importTenant(bad)).rejects.toMatchObject({
      errors: [
        {
          field: 'accountProviders[0].link.issuer',
          message: 'is required for OpenID Connect',
        },
        {
          field: 'accountProviders[0].link.tokenEndpoint',
          message: 'is found by discovery for OpenID Connect: leave it out',
        },
        {
          field: 'accountProviders[1].link.authorizationEndpoint',
          message: 'is required for plain OAuth 2.0',
        },
        {
          field: 'accountProviders[1].link.tokenEndpoint',
          message: 'is required for plain OAuth 2.0',
        },
        {
          field: 'accountProviders[1].link.userInfoEndpoint',
          message: 'is required for plain OAuth 2.0',
        },
        {
          field: 'accountProviders[1].link.claims.issuedUserId',
          message: 'is required for plain OAuth 2.0',
        },
      ],
    });
    // The export holds the variable's name; the secret is nowhere.
    const exported = JSON.stringify(await t.tenants.exportTenant(TENANT));
    expect(exported).toContain(`"clientSecretEnv":"${SECRET_VARIABLE}"`);
    expect(exported).not.toContain('link-client-secret');
    expect(exported).not.toContain('gh-secret');
    expect(JSON.parse(exported).tenant.linkReturnUrls).toStrictEqual([
      APP,
      OTHER_APP,
    ]);
  });
});
