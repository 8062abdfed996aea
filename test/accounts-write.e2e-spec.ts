import { identity, provider, tenantFile, token } from './support/factories';
import { useTenant, useTestApp } from './support/test-app';
import { problemBody } from './support/problem';

const WRITER = token({ appId: 'crm', scopes: ['accounts:write'] });
const READER = token({
  appId: 'reader',
  scopes: ['identities:read', 'identities:delete', 'friends:write'],
});
const ANN = token({ identityId: 'ann' });
const ANN_VIA_SSO = token({ identityId: 'ann', accountId: 'ann-sso' });

/**
 * Ann (an admin) with an account at the single-account provider `sso`, two
 * tokens (one issued for that account), Ben with none; `github` allows
 * several accounts.
 */
const FILE = tenantFile({
  id: 'accounts-write',
  adminRoles: ['admin'],
  accountProviders: [
    provider('sso'),
    provider('github', {
      signInUrl: 'https://github.example/link',
      allowsMultipleAccounts: true,
    }),
  ],
  identities: [
    identity('ann', {
      displayName: 'Ann',
      roles: ['admin'],
      accounts: [
        { accountId: 'ann-sso', accountProviderId: 'sso', issuedUserId: 's-1' },
      ],
    }),
    identity('ben', { displayName: 'Ben' }),
  ],
  tokens: [WRITER, READER, ANN, ANN_VIA_SSO],
});

describe('writing accounts (accounts:write, and unlinking one’s own)', () => {
  const t = useTestApp();
  const tenant = useTenant(t, FILE, { each: true });

  const post = (id: string, body: object, secret = WRITER.token) =>
    t
      .http()
      .post(`${tenant.api}/${id}/accounts`)
      .set('Authorization', `Bearer ${tenant.token(secret)}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const remove = (path: string, secret = WRITER.token) =>
    t
      .http()
      .delete(`${tenant.api}${path}`)
      .set('Authorization', `Bearer ${tenant.token(secret)}`);
  const accountsOf = (id: string) =>
    tenant.as(READER.token).get(`/${id}/accounts`);
  const events = () =>
    t.database.prisma.identityEvent.findMany({
      where: { tenantId: tenant.id, type: { not: 'imported' } },
      orderBy: { id: 'asc' },
      select: { identityId: true, type: true, fields: true },
    });
  const problem = problemBody;

  it('POST records an account: 201 with it as the list shows it, the list’s ETag changes, an event', async () => {
    const before = await accountsOf('ben').expect(200);
    const res = await post('ben', {
      accountId: 'ben-gh',
      accountProviderId: 'github',
      issuedUserId: '4711',
      displayName: 'benny',
      emailAddress: 'ben@github.example',
      pictureUrl: 'https://github.example/ben.png',
    }).expect(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toStrictEqual({
      accountId: 'ben-gh',
      issuedUserId: '4711',
      isCurrent: false,
      displayName: 'benny',
      emailAddress: 'ben@github.example',
      pictureUrl: 'https://github.example/ben.png',
    });
    const after = await accountsOf('ben').expect(200);
    expect(after.body[1]).toStrictEqual({
      accountProviderId: 'github',
      signInUrl: 'https://github.example/link',
      canAddAnotherAccount: true,
      accounts: [res.body],
    });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // Without an accountId: a new UUID.
    const second = await post('ben', {
      accountProviderId: 'github',
      issuedUserId: '4712',
    }).expect(201);
    expect(second.body).toStrictEqual({
      accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      issuedUserId: '4712',
      isCurrent: false,
    });
    expect(await events()).toStrictEqual([
      { identityId: 'ben', type: 'updated', fields: ['accounts'] },
      { identityId: 'ben', type: 'updated', fields: ['accounts'] },
    ]);
  });

  it('refuses what would break a rule: 409 or 400, and records nothing', async () => {
    const cases: [string, object, number, object][] = [
      [
        'ben',
        { accountProviderId: 'sso', issuedUserId: 's-1' },
        409,
        problem(
          409,
          'account-in-use',
          'The account "s-1" of provider "sso" is another identity\'s, or this one\'s already.',
        ),
      ],
      [
        'ann',
        { accountProviderId: 'sso', issuedUserId: 's-2' },
        409,
        problem(
          409,
          'limit-reached',
          'Provider "sso" allows one account per identity, and "ann" has one.',
        ),
      ],
      [
        'ben',
        {
          accountId: 'ann-sso',
          accountProviderId: 'github',
          issuedUserId: '9',
        },
        409,
        problem(
          409,
          'account-id-taken',
          'The accountId "ann-sso" is taken in this tenant.',
        ),
      ],
      [
        'ben',
        { accountProviderId: 'gitlab', issuedUserId: '9' },
        400,
        {
          ...problem(
            400,
            'invalid-request',
            'accountProviderId: no account provider "gitlab" in this tenant.',
          ),
          errors: [
            {
              field: 'accountProviderId',
              message: 'is no provider of the tenant',
            },
          ],
        },
      ],
      [
        'ben',
        { accountProviderId: 'github' },
        400,
        {
          ...problem(400, 'invalid-request', 'issuedUserId is required'),
          errors: [{ field: 'issuedUserId', message: 'is required' }],
        },
      ],
      [
        'ben',
        { accountProviderId: 'github', issuedUserId: '9', isCurrent: true },
        400,
        {
          ...problem(
            400,
            'invalid-request',
            'The body has unknown fields: isCurrent.',
          ),
          errors: [{ field: 'isCurrent', message: 'is not a known field' }],
        },
      ],
      [
        'ben',
        {
          accountProviderId: 'github',
          issuedUserId: '9',
          displayName: 'x'.repeat(513),
        },
        400,
        {
          ...problem(
            400,
            'invalid-request',
            'displayName must be at most 512 characters',
          ),
          errors: [
            {
              field: 'displayName',
              message: 'must be at most 512 characters',
            },
          ],
        },
      ],
      [
        'nobody',
        { accountProviderId: 'github', issuedUserId: '9' },
        404,
        problem(
          404,
          'identity-not-found',
          'No identity "nobody" is visible to the caller in this tenant.',
        ),
      ],
    ];
    for (const [id, body, status, answer] of cases) {
      const res = await post(id, body);
      expect([body, res.status, res.body]).toStrictEqual([
        body,
        status,
        answer,
      ]);
    }
    expect(await events()).toStrictEqual([]);
  });

  it('DELETE of {id}/accounts/{accountId} removes it and the tokens issued for it; again 404', async () => {
    await tenant.as(ANN_VIA_SSO.token).get('').expect(200);
    await remove('/ann/accounts/ann-sso').expect(204);
    expect((await accountsOf('ann')).body[0].accounts).toStrictEqual([]);
    await tenant.as(ANN_VIA_SSO.token).get('').expect(401);
    await tenant.as(ANN.token).get('').expect(200);
    expect(await events()).toStrictEqual([
      { identityId: 'ann', type: 'updated', fields: ['accounts'] },
    ]);
    const again = await remove('/ann/accounts/ann-sso').expect(404);
    expect(again.body).toStrictEqual(
      problem(
        404,
        'account-not-found',
        'Identity "ann" has no account "ann-sso".',
      ),
    );
  });

  it('an identity unlinks its own account, but not the one its token was issued for', async () => {
    const current = await remove('/accounts/ann-sso', ANN_VIA_SSO.token).expect(
      409,
    );
    expect(current.body).toStrictEqual(
      problem(
        409,
        'current-account',
        'This token was issued for that account: sign in with another one to remove it.',
      ),
    );
    await remove('/accounts/nope', ANN.token).expect(404);
    await remove('/accounts/ann-sso', ANN.token).expect(204);
    expect((await accountsOf('ann')).body[0].accounts).toStrictEqual([]);
    // App tokens have no own accounts.
    await remove('/accounts/x', WRITER.token).expect(403);
  });

  it('only app tokens with accounts:write record or remove an identity’s accounts', async () => {
    const body = { accountProviderId: 'github', issuedUserId: '1' };
    for (const [secret, detail] of [
      [READER.token, 'This app token lacks the accounts:write scope.'],
      [
        ANN.token,
        'Accounts of an identity are recorded by an app token with the accounts:write scope.',
      ],
    ]) {
      const res = await post('ben', body, secret);
      expect([res.status, res.body]).toStrictEqual([
        403,
        problem(403, 'forbidden', detail),
      ]);
    }
    await remove('/ann/accounts/ann-sso', READER.token).expect(403);
    await post('ben', body, 'not-a-token-of-this-tenant-1').expect(401);
    expect(await events()).toStrictEqual([]);
  });
});
