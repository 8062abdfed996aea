import { TokensService } from '../src/auth/tokens.service';
import { API, example, TOKENS } from './support/example';
import { identity, tenantFile, token } from './support/factories';
import { useTestApp } from './support/test-app';

// The authorization table of decisions.md, for every kind of caller against
// every GET endpoint. The target is mary: ada (admin) and charles are her
// friends; olga is a friend of charles only, a stranger to mary.
const CURRENT = ['', '/accounts', '/friends', '/roles'];
const BY_ID = ['/mary', '/mary/accounts', '/mary/friends', '/mary/roles'];

const OLGA = token({ identityId: 'olga' });
const REVOKED = token({ identityId: 'mary' });
/** Mary's token in a tenant of its own. */
const OTHER_TENANT = token({ identityId: 'mary' });

const TABLE: [
  caller: string,
  token: string,
  current: number[],
  byId: number[],
][] = [
  ['self', TOKENS.mary, [200, 200, 200, 200], [200, 200, 200, 200]],
  ['friend', TOKENS.charles, [200, 200, 200, 200], [200, 404, 404, 404]],
  ['admin', TOKENS.ada, [200, 200, 200, 200], [200, 200, 200, 200]],
  [
    'stranger (friend of a friend)',
    OLGA.token,
    [200, 200, 200, 200],
    [404, 404, 404, 404],
  ],
  [
    'app without scope',
    TOKENS.bare,
    [403, 403, 403, 403],
    [403, 403, 403, 403],
  ],
  [
    'app with identities:read',
    TOKENS.crm,
    [403, 403, 403, 403],
    [200, 200, 200, 200],
  ],
  [
    'token of another tenant',
    OTHER_TENANT.token,
    [401, 401, 401, 401],
    [401, 401, 401, 401],
  ],
  ['expired token', TOKENS.expired, [401, 401, 401, 401], [401, 401, 401, 401]],
  ['revoked token', REVOKED.token, [401, 401, 401, 401], [401, 401, 401, 401]],
  [
    'disabled identity',
    TOKENS.grace,
    [403, 403, 403, 403],
    [403, 403, 403, 403],
  ],
  ['no token', '', [401, 401, 401, 401], [401, 401, 401, 401]],
];

describe('authorization table', () => {
  const t = useTestApp(() => {
    const file = example();
    file.identities.push(
      identity('olga', { displayName: 'Olga', friends: ['charles'] }),
    );
    file.tokens.push(OLGA, REVOKED);
    const other = tenantFile({
      identities: [identity('mary')],
      tokens: [OTHER_TENANT],
    });
    return { tenants: [file, other] };
  });
  beforeAll(() =>
    t.app.get(TokensService).revokeToken('example', REVOKED.token),
  );

  describe.each(TABLE)('%s', (_caller, token, current, byId) => {
    const paths = [...CURRENT, ...BY_ID];
    const expected = [...current, ...byId];
    it.each(paths.map((path, i) => [path || '/', expected[i]] as const))(
      'GET %s → %i',
      async (path, status) => {
        const res = await t.as(token).get(`${API}${path === '/' ? '' : path}`);
        expect(res.status).toBe(status);
        expect(res.headers['content-type']).toBe(
          status === 200
            ? 'application/json; charset=utf-8'
            : 'application/problem+json',
        );
        if (status === 401)
          expect(res.headers['www-authenticate']).toBe(
            token
              ? 'Bearer realm="example", error="invalid_token"'
              : 'Bearer realm="example"',
          );
      },
    );
  });

  it('shows a friend the public view only', async () => {
    const res = await t.as(TOKENS.charles).get(`${API}/mary`).expect(200);
    expect(res.body).toStrictEqual({
      identityId: 'mary',
      displayName: 'Mary Somerville',
      givenName: 'Mary',
      givenNames: ['Mary'],
      surname: 'Somerville',
      surnames: ['Somerville'],
      locality: 'en-GB',
      localities: ['en-GB'],
      disabled: false,
      isArchived: false,
    });
  });

  it('answers a stranger exactly as for an identity that does not exist', async () => {
    const hidden = await t.as(OLGA.token).get(`${API}/mary`).expect(404);
    const missing = await t.as(OLGA.token).get(`${API}/nobody`).expect(404);
    expect(hidden.body).toStrictEqual({
      ...missing.body,
      detail: missing.body.detail.replace('nobody', 'mary'),
      instance: `${API}/mary`,
    });
  });

  it('answers 401 on an unknown tenant, with or without a token', async () => {
    const withToken = await t
      .as(TOKENS.ada)
      .get('/nosuch/api/identity/v1')
      .expect(401);
    expect(withToken.headers['www-authenticate']).toBe(
      'Bearer realm="nosuch", error="invalid_token"',
    );
    const without = await t
      .http()
      .get('/nosuch/api/identity/v1/ada')
      .expect(401);
    expect(without.headers['www-authenticate']).toBe('Bearer realm="nosuch"');
  });
});
