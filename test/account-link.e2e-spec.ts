import { createHash } from 'node:crypto';
import { Prisma } from '../src/generated/prisma/client';
import {
  identity,
  insertRows,
  tenantFile,
  token,
  type Token,
} from './support/factories';
import { LocalOAuthServer } from './support/oauth2-server';
import { Browser, LocalOpenIdProvider } from './support/oidc-op';
import { problemBody as problem } from './support/problem';
import { useTestApp } from './support/test-app';

// The service's address as browsers reach it in these tests: never
// requested by HTTP, the test browser hands its URLs to the test app.
const SERVICE = 'http://127.0.0.1:9';
const TENANT = 'link';
const CALLBACK = `${SERVICE}/${TENANT}/link/v1/callback`;
const APP = 'https://app.example.test/accounts/linked';
const OTHER_APP = 'https://app.example.test/settings';

const ANN = token({ identityId: 'ann' });
const BOB = token({ identityId: 'bob' });
const VIC = token({ identityId: 'vic' });
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
  beforeAll(async () => {
    await op.start();
    await github.start();
  });
  afterAll(async () => {
    await op.stop();
    await github.stop();
  });
  // The providers' addresses are known once they have started.
  const t = useTestApp(() => ({
    tenants: [
      tenantFile({
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
              clientSecret: 'link-client-secret',
            },
          },
          {
            accountProviderId: 'one',
            signInUrl: 'https://one.example/configured',
            link: {
              type: 'oidc',
              issuer: op.base,
              clientId: 'identity-service',
              clientSecret: 'link-client-secret',
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
              clientSecret: 'gh-secret',
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
          identity('vic'),
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
        tokens: [ANN, BOB, VIC, CRM],
      }),
    ],
    config: { publicUrl: SERVICE },
  }));

  const accounts = (caller: Token, path = '/accounts') =>
    t.as(caller.token).get(`/${TENANT}/api/identity/v1${path}`).expect(200);
  const signInUrl = async (caller: Token, provider: string) =>
    (await accounts(caller)).body.find(
      (p: { accountProviderId: string }) => p.accountProviderId === provider,
    ).signInUrl as string;
  const result = (url: string) => Object.fromEntries(new URL(url).searchParams);
  const CONFIRMATIONS = `/${TENANT}/api/identity/v1/accounts/link-confirmations`;
  const confirm = (caller: Token | string, linkCode: unknown) =>
    t
      .http()
      .post(CONFIRMATIONS)
      .set(
        'Authorization',
        `Bearer ${typeof caller === 'string' ? caller : caller.token}`,
      )
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ linkCode }));
  const NOT_FOUND = problem(
    404,
    'link-not-found',
    'No link of the caller awaits this code: it is spent, expired or another identity’s. Start the link again.',
  );
  /** The browser's way through the provider, up to the return URL and its code. */
  const linkAs = async (
    browser: Browser,
    linkUrl: string,
    providerUser: string,
  ) => {
    const start = await browser.open(linkUrl);
    const done = await browser.open(
      await browser.signInAt(start.location!, providerUser),
    );
    expect(done.status).toBe(303);
    return done.location!;
  };
  const confirmed = (provider: string) => ({
    accountProviderId: provider,
    result: 'confirm',
    linkCode: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
  });

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

  it('links nothing when another identity’s link URL is completed and confirmed by a victim (login CSRF)', async () => {
    // Ann hands her link URL to the victim, whose browser signs in at the
    // provider as the victim.
    const annUrl = await signInUrl(ANN, 'op');
    const victim = new Browser(t, SERVICE);
    const back = await linkAs(victim, annUrl, 'vic-at-op');
    expect(back.startsWith(`${APP}?`)).toBe(true);
    const { linkCode } = result(back);
    expect(result(back)).toStrictEqual(confirmed('op'));
    const events = await t.database.prisma.identityEvent.count();
    // The victim's application confirms with the victim's own token.
    const refused = await confirm(VIC, linkCode);
    expect([refused.status, refused.body]).toStrictEqual([404, NOT_FOUND]);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    // The code is spent: Ann, whose link it was, confirms nothing with it.
    const late = await confirm(ANN, linkCode);
    expect([late.status, late.body]).toStrictEqual([404, NOT_FOUND]);
    expect(
      await t.database.prisma.account.count({
        where: { tenantId: TENANT, issuedUserId: 'vic-at-op' },
      }),
    ).toBe(0);
    expect(await t.database.prisma.identityEvent.count()).toBe(events);
    // The victim's own link of that provider account then succeeds.
    const own = result(
      await linkAs(victim, await signInUrl(VIC, 'op'), 'vic-at-op'),
    );
    const linked = await confirm(VIC, own.linkCode).expect(201);
    expect(linked.body).toStrictEqual({
      accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      issuedUserId: 'vic-at-op',
      isCurrent: false,
      displayName: 'Name of vic-at-op',
      emailAddress: 'vic-at-op@op.example',
      pictureUrl: 'https://op.example/vic-at-op.png',
    });
    expect((await accounts(VIC)).body[0].accounts).toStrictEqual([linked.body]);
    expect((await accounts(ANN)).body[0].accounts).toStrictEqual([]);
  });

  it('links the account signed in at the provider once the app confirms it with the identity’s own token', async () => {
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
    expect(done.location!.startsWith(`${APP}?`)).toBe(true);
    const { linkCode } = result(done.location!);
    expect(result(done.location!)).toStrictEqual(confirmed('op'));
    // Nothing is recorded before the confirmation.
    expect((await accounts(ANN)).body[0].accounts).toStrictEqual([]);
    const linked = await confirm(ANN, linkCode);
    expect([linked.status, linked.body]).toStrictEqual([
      201,
      {
        accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        issuedUserId: 'ann-at-op',
        isCurrent: false,
        displayName: 'Name of ann-at-op',
        emailAddress: 'ann-at-op@op.example',
        pictureUrl: 'https://op.example/ann-at-op.png',
      },
    ]);
    const list = (await accounts(ANN)).body;
    expect(list[0].accounts).toStrictEqual([linked.body]);
    const [event] = await t.database.prisma.identityEvent.findMany({
      where: { tenantId: TENANT, identityId: 'ann' },
      orderBy: { id: 'desc' },
      take: 1,
    });
    expect(event).toMatchObject({ type: 'updated', fields: ['accounts'] });
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

  it('gives a fresh URL after a start that came long after the previous one', async () => {
    // A start more than 2 × LINK_TICKET_SECONDS + LINK_ATTEMPT_SECONDS ago,
    // which the next start deletes.
    await insertRows(t.database, 'link_attempt', [
      {
        state: 'an-old-start',
        ticket_hash: 'an-old-ticket',
        tenant_id: TENANT,
        identity_id: 'bob',
        account_provider_id: 'op',
        code_verifier: 'v',
        nonce: 'n',
        return_url: APP,
        created_at: new Date(Date.now() - 1300_000),
        expires_at: new Date(Date.now() - 700_000),
      },
    ]);
    const browser = new Browser(t, SERVICE);
    const used = await signInUrl(BOB, 'op');
    expect(new URL((await browser.open(used)).location!).origin).toBe(op.base);
    const fresh = await signInUrl(BOB, 'op');
    expect(fresh).not.toBe(used);
    expect(new URL((await browser.open(fresh)).location!).origin).toBe(op.base);
  });

  it('takes a callback on its own tenant’s path only, and another tenant’s spends nothing', async () => {
    const other = await t.newTenant(
      tenantFile({ id: 'link-other', linkReturnUrls: [APP] }),
    );
    const browser = new Browser(t, SERVICE);
    const start = await browser.open(await signInUrl(ANN, 'one'));
    const back = await browser.signInAt(start.location!, 'ann-at-one');
    const elsewhere = await browser.open(
      back.replace(`/${TENANT}/link/v1/`, `/${other.id}/link/v1/`),
    );
    expect([elsewhere.status, JSON.parse(elsewhere.body)]).toStrictEqual([
      400,
      problem(
        400,
        'invalid-request',
        'This is not a callback of a link under way.',
      ),
    ]);
    const done = await browser.open(back);
    expect(result(done.location!)).toStrictEqual(confirmed('one'));
    await confirm(ANN, result(done.location!).linkCode).expect(201);
    await t.database.prisma.account.deleteMany({
      where: { tenantId: TENANT, identityId: 'ann', accountProviderId: 'one' },
    });
  });

  it('refuses at the confirmation an account that is another identity’s, and a second one where one is allowed', async () => {
    const bob = new Browser(t, SERVICE);
    const taken = result(
      await linkAs(bob, await signInUrl(BOB, 'op'), 'ann-at-op'),
    );
    expect(taken).toStrictEqual(confirmed('op'));
    const inUse = await confirm(BOB, taken.linkCode);
    expect([inUse.status, inUse.body]).toStrictEqual([
      409,
      problem(
        409,
        'account-in-use',
        'The account "ann-at-op" of provider "op" is another identity\'s, or this one\'s already.',
      ),
    ]);
    const second = result(
      await linkAs(bob, await signInUrl(BOB, 'one'), 'bob-two'),
    );
    const limit = await confirm(BOB, second.linkCode);
    expect([limit.status, limit.body]).toStrictEqual([
      409,
      problem(
        409,
        'limit-reached',
        'Provider "one" allows one account per identity, and "bob" has one.',
      ),
    ]);
    // A refused confirmation spends its code all the same.
    const again = await confirm(BOB, second.linkCode);
    expect([again.status, again.body]).toStrictEqual([404, NOT_FOUND]);
    const list = (await accounts(BOB)).body;
    expect(list.map((p: any) => p.accounts.length)).toStrictEqual([0, 1, 0, 0]);
  });

  it('confirms a code once, within LINK_ATTEMPT_SECONDS, on its tenant’s path, with an access token only', async () => {
    const other = await t.newTenant(
      tenantFile({
        id: 'link-elsewhere',
        linkReturnUrls: [APP],
        identities: [identity('ann')],
        tokens: [ANN],
      }),
    );
    const browser = new Browser(t, SERVICE);
    const codeOf = async (user: string) =>
      result(await linkAs(browser, await signInUrl(BOB, 'op'), user)).linkCode;
    const written = () =>
      Promise.all([
        t.database.prisma.account.count(),
        t.database.prisma.identityEvent.count(),
      ]);
    const before = await written();
    // The database holds the code's hash only, and its expiry is
    // LINK_ATTEMPT_SECONDS (600 here) from the callback.
    const kept = await codeOf('bob-kept');
    const row = await t.database.prisma.linkAttempt.findUniqueOrThrow({
      where: {
        confirmHash: createHash('sha256').update(kept).digest('base64url'),
      },
    });
    expect(JSON.stringify(row)).not.toContain(kept);
    expect(
      row.confirmExpiresAt!.getTime() - row.usedAt!.getTime(),
    ).toBeGreaterThan(599_000);
    expect(row.confirmExpiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(
      600_000,
    );
    // Expired: the same 404, and spent.
    await t.database.prisma.linkAttempt.update({
      where: { state: row.state },
      data: { confirmExpiresAt: new Date(Date.now() - 1000) },
    });
    for (let i = 0; i < 2; i++) {
      const late = await confirm(BOB, kept);
      expect([late.status, late.body]).toStrictEqual([404, NOT_FOUND]);
    }
    // An app token: 403, and the code is not spent by a refused request.
    const code = await codeOf('bob-elsewhere');
    const app = await confirm(CRM, code);
    expect([app.status, app.body]).toStrictEqual([
      403,
      problem(
        403,
        'forbidden',
        'An app token has no current identity; name the identity in the path.',
      ),
    ]);
    // Another tenant's path: Bob's token is no token there (401), and
    // that tenant's own identity finds no such link (404), which spends it.
    const elsewhere = `/${other.id}/api/identity/v1/accounts/link-confirmations`;
    const foreign = await t
      .http()
      .post(elsewhere)
      .set('Authorization', `Bearer ${BOB.token}`)
      .send({ linkCode: code });
    expect(foreign.status).toBe(401);
    const theirs = await t
      .http()
      .post(elsewhere)
      .set('Authorization', `Bearer ${other.token(ANN.token)}`)
      .send({ linkCode: code });
    expect([theirs.status, theirs.body]).toStrictEqual([
      404,
      { ...NOT_FOUND, instance: elsewhere },
    ]);
    // Malformed bodies: 400, nothing spent or written.
    const malformed = await confirm(BOB, 'short');
    expect([malformed.status, malformed.body]).toStrictEqual([
      400,
      {
        ...problem(400, 'invalid-request', 'linkCode is not a link code'),
        errors: [{ field: 'linkCode', message: 'is not a link code' }],
      },
    ]);
    const extra = await t
      .http()
      .post(CONFIRMATIONS)
      .set('Authorization', `Bearer ${BOB.token}`)
      .send({ linkCode: code, identityId: 'ann' });
    expect([extra.status, extra.body]).toStrictEqual([
      400,
      {
        ...problem(
          400,
          'invalid-request',
          'The body has unknown fields: identityId.',
        ),
        errors: [{ field: 'identityId', message: 'is not a known field' }],
      },
    ]);
    // The code is still good on its own tenant's path, once.
    const made = await confirm(BOB, code);
    expect(made.status).toBe(201);
    const reused = await confirm(BOB, code);
    expect([reused.status, reused.body]).toStrictEqual([404, NOT_FOUND]);
    const after = await written();
    expect(after).toStrictEqual([before[0] + 1, before[1] + 1]);
    await t
      .http()
      .delete(`/${TENANT}/api/identity/v1/accounts/${made.body.accountId}`)
      .set('Authorization', `Bearer ${BOB.token}`)
      .expect(204);
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
    expect(result(done.location!)).toStrictEqual(confirmed('github'));
    const linked = (
      await confirm(ANN, result(done.location!).linkCode).expect(201)
    ).body;
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
    const logs = t.recordLogs();
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
    // Each refusal is one warning, the provider named once at its start.
    const warned = logs.filter(
      (line) => line.level === 'warn' && line.message.includes('link provider'),
    );
    expect(warned).toHaveLength(3);
    for (const { message } of warned) {
      expect(message).toMatch(/^link provider "op" of tenant "[^"]+": \S/);
      expect(message.split('link provider').length).toBe(2);
    }
  });

  it('keeps link settings by the tenant file’s rules, and of a client secret only when it was set', async () => {
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
            clientSecret: 'tab\there',
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
          field: 'accountProviders[0].link.clientSecret',
          message:
            'must be 1 to 1024 printable ASCII characters (an OAuth 2.0 client secret)',
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
    bad.accountProviders[0].link.clientSecret = 'A_SECRET';
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
    // The export says when each secret was set; the secret is nowhere.
    const exported = JSON.stringify(await t.tenants.exportTenant(TENANT));
    expect(exported.match(/"clientSecretSetAt":"[^"]+Z"/g)).toHaveLength(3);
    expect(exported).not.toContain('link-client-secret');
    expect(exported).not.toContain('gh-secret');
    expect(JSON.parse(exported).tenant.linkReturnUrls).toStrictEqual([
      APP,
      OTHER_APP,
    ]);
  });
});
