import { EventsService } from '../src/events/events.service';
import { identity, tenantFile, token } from './support/factories';
import { AUDIENCE, useLocalIssuer } from './support/local-issuer';
import { problemBody as problem } from './support/problem';
import { useTenant, useTestApp } from './support/test-app';

const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const SCIM = token({ appId: 'directory', scopes: ['scim:provision'] });
const BOB = token({ identityId: 'bob', accountId: 'g-bob' });
const ANN = token({ identityId: 'ann' });

const GITHUB = {
  accountProviderId: 'github',
  displayName: 'GitHub',
  signInUrl: 'https://login.example.test/github',
  allowsMultipleAccounts: false,
};
const GOOGLE = {
  accountProviderId: 'google',
  signInUrl: 'https://login.example.test/google',
  allowsMultipleAccounts: true,
};

/** Two providers, Ann with three accounts, Bob (her friend) with one and a token for it. */
const FILE = tenantFile({
  id: 'settings',
  adminRoles: ['admin'],
  accountProviders: [GITHUB, GOOGLE],
  identities: [
    identity('ann', {
      roles: ['admin'],
      friends: ['bob'],
      accounts: [
        { accountId: 'gh-ann', accountProviderId: 'github', issuedUserId: '1' },
        {
          accountId: 'g-ann-1',
          accountProviderId: 'google',
          issuedUserId: '2',
        },
        {
          accountId: 'g-ann-2',
          accountProviderId: 'google',
          issuedUserId: '3',
        },
      ],
    }),
    identity('bob', {
      roles: ['staff'],
      accounts: [
        { accountId: 'g-bob', accountProviderId: 'google', issuedUserId: '4' },
      ],
    }),
  ],
  tokens: [ADMIN, SCIM, BOB, ANN],
});

/**
 * The problem a client sees; a 400's errors name each field its detail
 * names, with the same message.
 */
function expected(status: number, slug: string, detail: string) {
  if (status !== 400) return problem(status, slug, detail);
  const unknown = /^The body has unknown fields: (.*)\.$/.exec(detail);
  const errors = unknown
    ? unknown[1]
        .split(', ')
        .map((field) => ({ field, message: 'is not a known field' }))
    : detail.split('; ').map((part) => {
        const [field, ...message] = part.split(' ');
        return { field, message: message.join(' ') };
      });
  return { ...problem(status, slug, detail), errors };
}

describe('the admin API’s account providers and token issuers', () => {
  const idp = useLocalIssuer();
  const t = useTestApp();
  const tenant = useTenant(t, FILE, { each: true });

  const base = () => `/${tenant.id}/api/admin/v1`;
  const authorized = <T extends { set(k: string, v: string): T }>(req: T) =>
    req.set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`);
  const get = (path: string) => authorized(t.http().get(`${base()}${path}`));
  const send = (method: 'post' | 'put', path: string, body: object) =>
    authorized(t.http()[method](`${base()}${path}`))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const remove = (path: string) =>
    authorized(t.http().delete(`${base()}${path}`));
  const audit = async () =>
    (await get('/events?limit=1000').expect(200)).body.map(
      (e: { actor: string; action: string; target: string }) => [
        e.actor,
        e.action,
        e.target,
      ],
    );

  it('adds, shows, replaces and removes a provider, with ETags, If-Match and the audit log', async () => {
    const list = await get('/account-providers').expect(200);
    expect(list.body).toStrictEqual([GITHUB, GOOGLE]);
    const made = await send('post', '/account-providers', {
      accountProviderId: 'gitlab',
      signInUrl: 'https://login.example.test/gitlab',
    }).expect(201);
    const gitlab = {
      accountProviderId: 'gitlab',
      signInUrl: 'https://login.example.test/gitlab',
      allowsMultipleAccounts: false,
    };
    expect(made.body).toStrictEqual(gitlab);
    expect(made.headers.location).toBe(`${base()}/account-providers/gitlab`);
    expect(made.headers['content-type']).toBe(
      'application/json; charset=utf-8',
    );
    const shown = await get('/account-providers/gitlab').expect(200);
    expect(shown.body).toStrictEqual(gitlab);
    expect(shown.headers.etag).toBe(made.headers.etag);
    await get('/account-providers/gitlab')
      .set('If-None-Match', shown.headers.etag)
      .expect(304);
    // Listed after the others, a page at a time.
    const page = await get('/account-providers?limit=2').expect(200);
    expect(page.body).toStrictEqual([GITHUB, GOOGLE]);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.link)![1];
    expect(
      (await authorized(t.http().get(next)).expect(200)).body,
    ).toStrictEqual([gitlab]);

    const replaced = await send('put', '/account-providers/gitlab', {
      ...gitlab,
      displayName: 'GitLab',
      allowsMultipleAccounts: true,
    })
      .set('If-Match', shown.headers.etag)
      .expect(200);
    expect(replaced.body).toStrictEqual({
      accountProviderId: 'gitlab',
      displayName: 'GitLab',
      signInUrl: 'https://login.example.test/gitlab',
      allowsMultipleAccounts: true,
    });
    expect(replaced.headers.etag).not.toBe(shown.headers.etag);
    const stale = await send('put', '/account-providers/gitlab', gitlab)
      .set('If-Match', shown.headers.etag)
      .expect(412);
    expect(stale.body).toStrictEqual(
      problem(
        412,
        'precondition-failed',
        'If-Match does not match the current ETag of the provider; fetch it again and retry.',
      ),
    );
    await remove('/account-providers/gitlab')
      .set('If-Match', shown.headers.etag)
      .expect(412);
    await remove('/account-providers/gitlab')
      .set('If-Match', replaced.headers.etag)
      .expect(204);
    const gone = await get('/account-providers/gitlab').expect(404);
    expect(gone.body).toStrictEqual(
      problem(
        404,
        'provider-not-found',
        'No account provider "gitlab" in this tenant.',
      ),
    );
    // The audit log holds each row whole: of a client secret, only when it was set.
    const events = (await get('/events').expect(200)).body;
    expect(
      events.map((e: any) => [e.actor, e.action, e.target, e.before, e.after]),
    ).toStrictEqual([
      [
        'app:console',
        'provider.created',
        'provider:gitlab',
        undefined,
        {
          ...gitlab,
          displayName: null,
          providerImageUrl: null,
          link: null,
          clientSecretSetAt: null,
        },
      ],
      [
        'app:console',
        'provider.updated',
        'provider:gitlab',
        {
          ...gitlab,
          displayName: null,
          providerImageUrl: null,
          link: null,
          clientSecretSetAt: null,
        },
        {
          ...replaced.body,
          providerImageUrl: null,
          link: null,
          clientSecretSetAt: null,
        },
      ],
      [
        'app:console',
        'provider.deleted',
        'provider:gitlab',
        {
          ...replaced.body,
          providerImageUrl: null,
          link: null,
          clientSecretSetAt: null,
        },
        undefined,
      ],
    ]);
  });

  it('keeps a provider’s link settings, checked as the tenant file’s', async () => {
    const link = {
      type: 'oidc',
      issuer: 'https://login.example.test/',
      clientId: 'identity',
    };
    const made = await send('post', '/account-providers', {
      accountProviderId: 'gitlab',
      signInUrl: 'https://login.example.test/gitlab',
      link,
    }).expect(201);
    expect(made.body).toStrictEqual({
      accountProviderId: 'gitlab',
      signInUrl: 'https://login.example.test/gitlab',
      allowsMultipleAccounts: false,
      link,
    });
    for (const [changed, detail] of [
      [
        { ...link, clientSecretEnv: 'DATABASE_URL' },
        'link.clientSecretEnv is not a known field',
      ],
      [
        { ...link, issuer: undefined },
        'link.issuer is required for OpenID Connect',
      ],
    ] as const) {
      const res = await send('put', '/account-providers/gitlab', {
        signInUrl: 'https://login.example.test/gitlab',
        link: changed,
      });
      expect([res.status, res.body.detail]).toStrictEqual([400, detail]);
    }
    expect(
      (await get('/account-providers/gitlab').expect(200)).body,
    ).toStrictEqual(made.body);
  });

  it('refuses provider changes that would break the tenant’s data, and changes nothing', async () => {
    const cases: [() => any, number, string, string][] = [
      [
        () => send('post', '/account-providers', GITHUB),
        409,
        'provider-exists',
        'The tenant already has an account provider "github"; PUT changes it.',
      ],
      [
        () =>
          send('put', '/account-providers/google', {
            ...GOOGLE,
            allowsMultipleAccounts: false,
          }),
        409,
        'multiple-accounts',
        'Identities have several accounts at "google" ("ann"); unlink all but one of each first.',
      ],
      [
        () => remove('/account-providers/google'),
        409,
        'provider-in-use',
        '3 accounts are at "google"; DELETE with ?deleteAccounts=true removes them with the provider (the command line: --delete-accounts).',
      ],
      [
        () =>
          send('put', '/account-providers/github', {
            ...GITHUB,
            accountProviderId: 'gh',
          }),
        400,
        'invalid-request',
        'accountProviderId must be "github": a provider\'s id does not change',
      ],
      [
        () =>
          send('post', '/account-providers', {
            accountProviderId: 'bad id',
            signInUrl: 'javascript:alert(1)',
            extra: 1,
          }),
        400,
        'invalid-request',
        'The body has unknown fields: extra.',
      ],
      [
        () =>
          send('post', '/account-providers', {
            accountProviderId: 'bad id',
            signInUrl: 'javascript:alert(1)',
          }),
        400,
        'invalid-request',
        'accountProviderId must match /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/; signInUrl must be an absolute http(s) URL',
      ],
      [
        () => remove('/account-providers/google?deleteAccounts=yes'),
        400,
        'invalid-request',
        'deleteAccounts must be true or false',
      ],
      [
        () => send('put', '/account-providers/nope', GITHUB),
        400,
        'invalid-request',
        'accountProviderId must be "nope": a provider\'s id does not change',
      ],
      [
        () => remove('/account-providers/nope'),
        404,
        'provider-not-found',
        'No account provider "nope" in this tenant.',
      ],
    ];
    for (const [request, status, slug, detail] of cases) {
      const res = await request();
      expect([res.status, res.body]).toStrictEqual([
        status,
        expected(status, slug, detail),
      ]);
    }
    // An issuer that gives its identities accounts at a provider keeps it.
    await send('post', '/token-issuers', {
      issuer: idp.issuer(tenant.id),
      audiences: [AUDIENCE],
      provisioning: 'jit',
      accountClaim: 'sub',
      accountProvider: 'github',
    }).expect(201);
    const kept = await remove('/account-providers/github?deleteAccounts=true');
    expect([kept.status, kept.body]).toStrictEqual([
      409,
      problem(
        409,
        'provider-in-use',
        `The token issuers "${idp.issuer(tenant.id)}" link their accounts to "github"; change or remove them first.`,
      ),
    ]);
    expect(await audit()).toStrictEqual([
      ['app:console', 'issuer.created', `issuer:${idp.issuer(tenant.id)}`],
    ]);
    expect((await get('/account-providers').expect(200)).body).toStrictEqual([
      GITHUB,
      GOOGLE,
    ]);
  });

  it('removes a provider with its accounts when asked: their tokens go, each identity’s change is in the change log', async () => {
    await tenant.as(BOB.token).get('').expect(200);
    await remove('/account-providers/google?deleteAccounts=true').expect(204);
    expect(
      (await tenant.as(ANN.token).get('/accounts').expect(200)).body,
    ).toStrictEqual([
      {
        accountProviderId: 'github',
        displayName: 'GitHub',
        signInUrl: 'https://login.example.test/github',
        canAddAnotherAccount: false,
        accounts: [
          { accountId: 'gh-ann', issuedUserId: '1', isCurrent: false },
        ],
      },
    ]);
    // Bob's token was issued for an account that is gone.
    await tenant.as(BOB.token).get('').expect(401);
    expect((await get('/account-providers').expect(200)).body).toStrictEqual([
      GITHUB,
    ]);
    const changes = await t.app.get(EventsService).listEvents(tenant.id, 0n);
    expect(
      changes
        .filter((e) => e.type === 'updated')
        .map((e) => [e.identityId, e.fields]),
    ).toStrictEqual([
      ['ann', ['accounts']],
      ['bob', ['accounts']],
    ]);
  });

  it('trusts, changes and stops trusting an issuer: its tokens follow at once', async () => {
    const issuer = idp.issuer(tenant.id);
    const token = (audience = AUDIENCE) =>
      idp.sign({ sub: 'ann' }, { realm: tenant.id, audience });
    const ann = async (jwt: string) =>
      (
        await t
          .http()
          .get(`${tenant.api}`)
          .set('Authorization', `Bearer ${jwt}`)
      ).status;
    expect(await ann(await token())).toBe(401);
    const made = await send('post', '/token-issuers', {
      issuer,
      audiences: [AUDIENCE],
    }).expect(201);
    const entry = {
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      issuer,
      audiences: [AUDIENCE],
      algorithms: ['RS256', 'ES256', 'EdDSA'],
      identityClaim: 'sub',
      identityMatch: 'identityId',
      appIdClaims: ['client_id', 'azp'],
      scopeClaim: 'scope',
    };
    expect(made.body).toStrictEqual(entry);
    const id = made.body.id;
    expect(made.headers.location).toBe(`${base()}/token-issuers/${id}`);
    expect(await ann(await token())).toBe(200);
    expect((await get('/token-issuers').expect(200)).body).toStrictEqual([
      made.body,
    ]);
    const shown = await get(`/token-issuers/${id}`).expect(200);
    expect(shown.body).toStrictEqual(made.body);

    const changed = await send('put', `/token-issuers/${id}`, {
      ...made.body,
      audiences: ['other-api'],
      algorithms: ['RS256'],
    })
      .set('If-Match', shown.headers.etag)
      .expect(200);
    expect(changed.body).toStrictEqual({
      ...made.body,
      audiences: ['other-api'],
      algorithms: ['RS256'],
    });
    expect(await ann(await token())).toBe(401);
    expect(await ann(await token('other-api'))).toBe(200);

    await remove(`/token-issuers/${id}`)
      .set('If-Match', shown.headers.etag)
      .expect(412);
    await remove(`/token-issuers/${id}`).expect(204);
    expect(await ann(await token('other-api'))).toBe(401);
    const gone = await get(`/token-issuers/${id}`).expect(404);
    expect(gone.body).toStrictEqual(
      problem(
        404,
        'issuer-not-found',
        `No token issuer "${id}" in this tenant.`,
      ),
    );
    expect(await audit()).toStrictEqual([
      ['app:console', 'issuer.created', `issuer:${issuer}`],
      ['app:console', 'issuer.updated', `issuer:${issuer}`],
      ['app:console', 'issuer.deleted', `issuer:${issuer}`],
    ]);
  });

  it('refuses issuers as the tenant file does, and another tenant’s issuer and audience', async () => {
    const other = await t.newTenant(
      tenantFile({
        id: 'settings-other',
        tokenIssuers: [{ issuer: idp.issuer('shared'), audiences: ['a', 'b'] }],
      }),
    );
    expect(other.id).toMatch(/^settings-other/);
    const made = await send('post', '/token-issuers', {
      issuer: idp.issuer('mine'),
      audiences: [AUDIENCE],
    }).expect(201);
    const cases: [object, string, number, string, string][] = [
      [
        { issuer: idp.issuer('shared'), audiences: ['b', 'c'] },
        'post',
        409,
        'issuer-taken',
        `Another tenant trusts issuer "${idp.issuer('shared')}" with the audiences "b": a token must be valid on one tenant's paths only.`,
      ],
      [
        { issuer: idp.issuer('mine'), audiences: ['x'] },
        'post',
        409,
        'issuer-exists',
        `The tenant already trusts issuer "${idp.issuer('mine')}"; PUT at its id changes it.`,
      ],
      [
        { issuer: 'http://169.254.169.254/', audiences: ['x'] },
        'post',
        400,
        'invalid-request',
        'issuer must not name a link-local address or a cloud metadata service',
      ],
      [
        {
          issuer: idp.issuer('x'),
          audiences: [],
          identityMatch: 'account',
          secret: 's',
        },
        'post',
        400,
        'invalid-request',
        'The body has unknown fields: secret.',
      ],
      [
        { issuer: idp.issuer('x'), audiences: [], identityMatch: 'email' },
        'post',
        400,
        'invalid-request',
        'audiences must name at least one audience; identityMatch must be one of identityId, externalId, userName, account, verifiedEmail',
      ],
      [
        { issuer: idp.issuer('x'), audiences: ['x'], identityMatch: 'account' },
        'post',
        400,
        'invalid-request',
        'identityMatch "account" needs an accountProvider',
      ],
      [
        {
          issuer: idp.issuer('x'),
          audiences: ['x'],
          identityMatch: 'account',
          accountProvider: 'nowhere',
        },
        'post',
        400,
        'invalid-request',
        'accountProvider is not a provider of the tenant',
      ],
      [
        { ...made.body, issuer: idp.issuer('renamed') },
        'put',
        400,
        'invalid-request',
        `issuer must stay "${idp.issuer('mine')}": another URL is another issuer (POST it, then DELETE this one)`,
      ],
      [
        { ...made.body, id: 'AAAAAAAAAAAAAAAAAAAAAA' },
        'put',
        400,
        'invalid-request',
        `id must be "${made.body.id}"`,
      ],
    ];
    for (const [body, method, status, slug, detail] of cases) {
      const res = await send(
        method as 'post' | 'put',
        method === 'post' ? '/token-issuers' : `/token-issuers/${made.body.id}`,
        body,
      );
      expect([body, res.status, res.body]).toStrictEqual([
        body,
        status,
        expected(status, slug, detail),
      ]);
    }
    const missing = await send('put', '/token-issuers/AAAAAAAAAAAAAAAAAAAAAA', {
      issuer: idp.issuer('mine'),
      audiences: ['x'],
    });
    expect([missing.status, missing.body]).toStrictEqual([
      404,
      problem(
        404,
        'issuer-not-found',
        'No token issuer "AAAAAAAAAAAAAAAAAAAAAA" in this tenant.',
      ),
    ]);
    expect((await get('/token-issuers').expect(200)).body).toStrictEqual([
      made.body,
    ]);
    expect(await audit()).toStrictEqual([
      ['app:console', 'issuer.created', `issuer:${idp.issuer('mine')}`],
    ]);
  });

  it('leaves identities, accounts, friendships, roles, tokens and Group ids as they were', async () => {
    const scim = (path: string) =>
      t
        .http()
        .get(`/${tenant.id}/scim/v2${path}`)
        .set('Authorization', `Bearer ${tenant.token(SCIM.token)}`)
        .expect(200);
    const snapshot = async () => ({
      file: await t.tenants.exportTenant(tenant.id),
      tokens: (await get('/tokens?limit=1000').expect(200)).body.map(
        // Without lastUsedAt, which the snapshot's own requests move.
        (token: { lastUsedAt?: string }) => ({ ...token, lastUsedAt: null }),
      ),
      groups: (await scim('/Groups')).body.Resources.map(
        (g: { id: string; displayName: string }) => [g.id, g.displayName],
      ),
    });
    const before = await snapshot();
    expect(before.groups).toHaveLength(2);

    const provider = {
      accountProviderId: 'gitlab',
      signInUrl: 'https://l.example.test/',
    };
    await send('post', '/account-providers', provider).expect(201);
    await send('put', '/account-providers/github', {
      ...GITHUB,
      displayName: 'GitHub Enterprise',
    }).expect(200);
    const issuer = await send('post', '/token-issuers', {
      issuer: idp.issuer(tenant.id),
      audiences: [AUDIENCE],
      provisioning: 'jit',
      accountClaim: 'sub',
      accountProvider: 'gitlab',
    }).expect(201);
    await send('put', `/token-issuers/${issuer.body.id}`, {
      ...issuer.body,
      provisioning: undefined,
      accountClaim: undefined,
      accountProvider: undefined,
    }).expect(200);
    await remove(`/token-issuers/${issuer.body.id}`).expect(204);
    await remove('/account-providers/gitlab').expect(204);
    await send('put', '/account-providers/github', GITHUB).expect(200);

    expect(await snapshot()).toStrictEqual(before);
  });
});
