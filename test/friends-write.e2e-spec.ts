import { identity, tenantFile, token } from './support/factories';
import { useTenant, useTestApp } from './support/test-app';
import { problemBody } from './support/problem';

const WRITER = token({ appId: 'social', scopes: ['friends:write'] });
const READER = token({
  appId: 'reader',
  scopes: ['identities:read', 'identities:delete'],
});
const ADMIN = token({ identityId: 'ann' });

/** Ann, Ben and Cy, none friends; Ann is an admin; an app that writes friendships and one that reads. */
const FILE = tenantFile({
  id: 'friends-write',
  adminRoles: ['admin'],
  identities: [
    identity('ann', { displayName: 'Ann', roles: ['admin'] }),
    identity('ben', { displayName: 'Ben' }),
    identity('cy', { displayName: 'Cy' }),
  ],
  tokens: [WRITER, READER, ADMIN],
});

describe('writing friendships (friends:write)', () => {
  const t = useTestApp();
  const tenant = useTenant(t, FILE, { each: true });

  const send = (
    method: 'put' | 'delete',
    path: string,
    secret: string = WRITER.token,
  ) =>
    t
      .http()
      [method](`${tenant.api}${path}`)
      .set('Authorization', `Bearer ${tenant.token(secret)}`);
  const friendsOf = (id: string) =>
    tenant.as(READER.token).get(`/${id}/friends`);
  const events = () =>
    t.database.prisma.identityEvent.findMany({
      where: { tenantId: tenant.id, type: { not: 'imported' } },
      orderBy: { id: 'asc' },
      select: { identityId: true, type: true, fields: true },
    });
  const problem = (
    status: number,
    slug: string,
    detail: string,
    path?: string,
  ) => problemBody(status, slug, detail, path && `${tenant.api}${path}`);

  it('PUT makes both friends (204), once; each list and its ETag change, the identities’ own ETags do not', async () => {
    const [annBefore, friendsBefore] = await Promise.all([
      tenant.as(READER.token).get('/ann').expect(200),
      friendsOf('ann').expect(200),
    ]);
    const before = (await events()).length;
    const res = await send('put', '/ann/friends/ben').expect(204);
    expect(res.text).toBe('');
    expect(res.headers['ratelimit-limit']).toBeDefined();
    const [annFriends, benFriends] = await Promise.all([
      friendsOf('ann').expect(200),
      friendsOf('ben').expect(200),
    ]);
    expect(annFriends.body).toStrictEqual([
      { identityId: 'ben', displayName: 'Ben' },
    ]);
    expect(benFriends.body).toStrictEqual([
      { identityId: 'ann', displayName: 'Ann' },
    ]);
    expect(annFriends.headers.etag).not.toBe(friendsBefore.headers.etag);
    await tenant
      .as(READER.token)
      .get('/ann')
      .expect('ETag', annBefore.headers.etag);
    expect((await events()).slice(before)).toStrictEqual([
      { identityId: 'ann', type: 'updated', fields: ['friends'] },
      { identityId: 'ben', type: 'updated', fields: ['friends'] },
    ]);
    // Again: 204, nothing written.
    await send('put', '/ben/friends/ann').expect(204);
    expect((await events()).length).toBe(before + 2);
    await friendsOf('ann').expect('ETag', annFriends.headers.etag);
  });

  it('DELETE ends it for both (204); a second DELETE is 404', async () => {
    await send('put', '/ann/friends/cy').expect(204);
    const before = (await events()).length;
    await send('delete', '/cy/friends/ann').expect(204);
    expect((await friendsOf('ann')).body).toStrictEqual([]);
    expect((await friendsOf('cy')).body).toStrictEqual([]);
    expect((await events()).slice(before)).toStrictEqual([
      { identityId: 'ann', type: 'updated', fields: ['friends'] },
      { identityId: 'cy', type: 'updated', fields: ['friends'] },
    ]);
    const again = await send('delete', '/cy/friends/ann').expect(404);
    expect(again.headers['content-type']).toBe('application/problem+json');
    expect(again.body).toStrictEqual(
      problem(404, 'friendship-not-found', '"cy" and "ann" are not friends.'),
    );
  });

  it('refuses what names no pair of identities, and changes nothing', async () => {
    const cases: [string, 'put' | 'delete', number, object][] = [
      [
        '/ann/friends/ann',
        'put',
        400,
        problem(
          400,
          'invalid-request',
          'An identity cannot be its own friend.',
        ),
      ],
      [
        '/ann/friends/nobody',
        'put',
        404,
        problem(
          404,
          'identity-not-found',
          'No identity "nobody" is visible to the caller in this tenant.',
        ),
      ],
      [
        '/ann/friends/not%20an%20id',
        'put',
        404,
        problem(
          404,
          'identity-not-found',
          'No identity "not an id" is visible to the caller in this tenant.',
        ),
      ],
      [
        '/nobody/friends/ann',
        'put',
        404,
        problem(
          404,
          'identity-not-found',
          'No identity "nobody" is visible to the caller in this tenant.',
        ),
      ],
      [
        '/ann/friends/nobody',
        'delete',
        404,
        problem(
          404,
          'friendship-not-found',
          '"ann" and "nobody" are not friends.',
        ),
      ],
    ];
    for (const [path, method, status, body] of cases) {
      const res = await send(method, path);
      expect([method, path, res.status, res.body]).toStrictEqual([
        method,
        path,
        status,
        body,
      ]);
    }
    expect(await events()).toStrictEqual([]);
  });

  it('only app tokens with friends:write: 403 for others, an admin’s access token included', async () => {
    for (const [secret, detail] of [
      [READER.token, 'This app token lacks the friends:write scope.'],
      [
        ADMIN.token,
        'Friendships are written by an app token with the friends:write scope.',
      ],
    ])
      await send('put', '/ann/friends/ben', secret)
        .expect(403)
        .expect((r) =>
          expect(r.body).toStrictEqual(problem(403, 'forbidden', detail)),
        );
    await send('delete', '/ann/friends/ben', READER.token).expect(403);
    // A writer of another tenant knows no identity here.
    const other = await t.newTenant(FILE);
    await t
      .http()
      .put(`${tenant.api}/ann/friends/ben`)
      .set('Authorization', `Bearer ${other.token(WRITER.token)}`)
      .expect(401);
    expect(await events()).toStrictEqual([]);
  });
});
