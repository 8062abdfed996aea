import type { Response } from 'supertest';
import { EventsService } from '../src/events/events.service';
import { adminRequests } from './support/admin-requests';
import { identity, provider, tenantFile, token } from './support/factories';
import { openApiValidator } from './support/openapi';
import { problemBody } from './support/problem';
import { useTenant, useTestApp } from './support/test-app';

const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const READER = token({ appId: 'reader', scopes: ['identities:read'] });
const CRM = token({ appId: 'crm', scopes: [] });
const ANN = token({ identityId: 'ann' });
const ANN_PHONE = token({ identityId: 'ann' });
const BOB = token({ identityId: 'bob' });

/**
 * Five identities whose ids, user names, display names and e-mail
 * addresses tell the four keys of a search apart, and the LIKE wildcards
 * from the characters they are (a_b against axb, 100% against 1000); cy
 * holds the merged-away cy-old.
 */
const FILE = tenantFile({
  adminRoles: ['admin'],
  accountProviders: [provider('one'), provider('two')],
  identities: [
    identity('ann', {
      displayName: 'Ann Lee',
      userName: 'annlee',
      emailAddress: 'ann@example.org',
      emailAddresses: ['ann@example.org', 'Ann.Work@Corp.example'],
      smallPictures: ['https://pictures.example/ann-s.jpg'],
      roles: ['member', 'admin'],
      friends: ['bob', 'cy'],
      accounts: [{ accountProviderId: 'one', issuedUserId: 'ann-1' }],
    }),
    identity('bob', {
      displayName: 'Bob',
      userName: 'BOBBY',
      emailAddress: 'bob@example.org',
    }),
    identity('a_b', { displayName: '100% Sure' }),
    identity('axb', { displayName: '1000 Sure' }),
    identity('cy', { displayName: 'Cy', oldIdentityIds: ['cy-old'] }),
  ],
  tokens: [ADMIN, READER, CRM, ANN, ANN_PHONE, BOB],
});

/** The identities as a search lists them. */
const LISTED = {
  a_b: { identityId: 'a_b', displayName: '100% Sure' },
  ann: {
    identityId: 'ann',
    displayName: 'Ann Lee',
    userName: 'annlee',
    emailAddress: 'ann@example.org',
    smallPictures: ['https://pictures.example/ann-s.jpg'],
  },
  axb: { identityId: 'axb', displayName: '1000 Sure' },
  bob: {
    identityId: 'bob',
    displayName: 'Bob',
    userName: 'BOBBY',
    emailAddress: 'bob@example.org',
  },
  cy: { identityId: 'cy', displayName: 'Cy' },
};

const cursorOf = (...key: string[]) =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

/** The path a Link rel="next" header names. */
const nextOf = (res: Response) =>
  /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];

describe('identities in the administration API', () => {
  const t = useTestApp();
  const tenant = useTenant(t, FILE, { each: true });
  const { admin, refusal } = adminRequests(t, () => tenant, ADMIN.token);
  let expectConforms: ReturnType<typeof openApiValidator>;
  beforeAll(async () => {
    expectConforms = openApiValidator(
      (await t.http().get('/openapi.json').expect(200)).body,
    );
  });

  /**
   * A GET of the admin API at `path` (below /{tenant}/api/admin/v1), with
   * the admin token unless told; its answer as the document of route
   * `template` says it may be.
   */
  const get = async (path: string, template: string, secret = ADMIN.token) => {
    const res = await t
      .http()
      .get(path.startsWith(`/${tenant.id}/`) ? path : admin(path))
      .set('Authorization', `Bearer ${tenant.token(secret)}`);
    expectConforms(res, 'GET', `/{tenant}/api/admin/v1${template}`);
    return res;
  };
  /** The same GET of the identity API, as an app with identities:read. */
  const read = (path: string) =>
    t
      .http()
      .get(`${tenant.api}${path}`)
      .set('Authorization', `Bearer ${tenant.token(READER.token)}`);
  const found = async (q: string) => {
    const res = await get(
      `/identities?q=${encodeURIComponent(q)}`,
      '/identities',
    );
    return [q, res.status, res.body];
  };

  it('lists every identity by identityId, each with its summary fields', async () => {
    const res = await get('/identities', '/identities');
    expect([res.status, res.headers.link, res.body]).toStrictEqual([
      200,
      undefined,
      [LISTED.a_b, LISTED.ann, LISTED.axb, LISTED.bob, LISTED.cy],
    ]);
    const again = await t
      .http()
      .get(admin('/identities'))
      .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
      .set('If-None-Match', res.headers.etag);
    expectConforms(again, 'GET', '/{tenant}/api/admin/v1/identities');
    expect([again.status, again.text]).toStrictEqual([304, '']);
  });

  it('finds identities by a part of their id, userName, displayName or any e-mail address, A–Z as a–z', async () => {
    for (const [q, listed] of [
      ['XB', [LISTED.axb]],
      ['bobby', [LISTED.bob]],
      ['LEE', [LISTED.ann]],
      ['corp.EXAMPLE', [LISTED.ann]],
      ['BOB@', [LISTED.bob]],
      ['sure', [LISTED.a_b, LISTED.axb]],
      ['nobody', []],
    ] as const)
      expect(await found(q)).toStrictEqual([q, 200, listed]);
  });

  it('takes % and _ for themselves, not as wildcards', async () => {
    for (const [q, listed] of [
      ['%', [LISTED.a_b]],
      ['0%', [LISTED.a_b]],
      ['_', [LISTED.a_b]],
      ['a_b', [LISTED.a_b]],
      ['\\', []],
      ['%%', []],
    ] as const)
      expect(await found(q)).toStrictEqual([q, 200, listed]);
  });

  it('lists no merged-away id: it is another name of the identity it went into', async () => {
    expect(await found('cy-old')).toStrictEqual(['cy-old', 200, []]);
  });

  it('pages a search, the next page’s link repeating q', async () => {
    const first = await get('/identities?q=e&limit=3', '/identities');
    expect([first.status, first.body, nextOf(first)]).toStrictEqual([
      200,
      [LISTED.a_b, LISTED.ann, LISTED.axb],
      admin(`/identities?q=e&limit=3&cursor=${cursorOf('axb')}`),
    ]);
    const rest = await get(nextOf(first)!, '/identities');
    expect([rest.status, rest.body, rest.headers.link]).toStrictEqual([
      200,
      [LISTED.bob],
      undefined,
    ]);
    // The link's q is percent-encoded, as a client sends it.
    const spaced = await get('/identities?q=%20s&limit=1', '/identities');
    expect([spaced.body, nextOf(spaced)]).toStrictEqual([
      [LISTED.a_b],
      admin(`/identities?q=%20s&limit=1&cursor=${cursorOf('a_b')}`),
    ]);
    expect((await get(nextOf(spaced)!, '/identities')).body).toStrictEqual([
      LISTED.axb,
    ]);
    const all = await get('/identities?limit=2', '/identities');
    expect(nextOf(all)).toBe(
      admin(`/identities?limit=2&cursor=${cursorOf('ann')}`),
    );
  });

  it('shows an identity with the identity API’s body and ETag, 304 to it', async () => {
    for (const id of ['ann', 'bob', 'a_b']) {
      const res = await get(`/identities/${id}`, '/identities/{id}');
      const theirs = await read(`/${id}`).expect(200);
      expect([id, res.status, res.body, res.headers.etag]).toStrictEqual([
        id,
        200,
        theirs.body,
        theirs.headers.etag,
      ]);
    }
    const unchanged = await t
      .http()
      .get(admin('/identities/ann'))
      .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
      .set('If-None-Match', (await read('/ann')).headers.etag);
    expectConforms(unchanged, 'GET', '/{tenant}/api/admin/v1/identities/{id}');
    expect([unchanged.status, unchanged.text]).toStrictEqual([304, '']);
  });

  it('shows accounts, friends and roles as the identity API does, friends and roles a page at a time', async () => {
    for (const what of [
      'accounts',
      'friends',
      'roles',
      'friends?limit=1',
      'roles?limit=1',
    ]) {
      const template = `/identities/{id}/${what.split('?')[0]}`;
      const res = await get(`/identities/ann/${what}`, template);
      const theirs = await read(`/ann/${what}`).expect(200);
      expect([what, res.status, res.body, res.headers.etag]).toStrictEqual([
        what,
        200,
        theirs.body,
        theirs.headers.etag,
      ]);
    }
    expect(
      (await get('/identities/ann/roles', '/identities/{id}/roles')).body,
    ).toStrictEqual([{ name: 'admin' }, { name: 'member' }]);
    const friends = await get(
      '/identities/ann/friends?limit=1',
      '/identities/{id}/friends',
    );
    expect([friends.body, nextOf(friends)]).toStrictEqual([
      [{ identityId: 'bob', displayName: 'Bob' }],
      admin(`/identities/ann/friends?limit=1&cursor=${cursorOf('Bob', 'bob')}`),
    ]);
    const rest = await get(nextOf(friends)!, '/identities/{id}/friends');
    expect([rest.body, rest.headers.link]).toStrictEqual([
      [{ identityId: 'cy', displayName: 'Cy' }],
      undefined,
    ]);
    const accounts = await get(
      '/identities/ann/accounts',
      '/identities/{id}/accounts',
    );
    expect(
      accounts.body.map((entry: any) => [
        entry.accountProviderId,
        entry.accounts.length,
      ]),
    ).toStrictEqual([
      ['one', 1],
      ['two', 0],
    ]);
  });

  it('answers a merged-away id as the identity API does: 308 to the same path under its identity', async () => {
    const theirs = await read('/cy-old').expect(308);
    expect(theirs.headers.location).toBe(`${tenant.api}/cy`);
    for (const [path, template, location] of [
      ['/identities/cy-old', '/identities/{id}', '/identities/cy'],
      [
        '/identities/cy-old/roles',
        '/identities/{id}/roles',
        '/identities/cy/roles',
      ],
      [
        `/identities/cy-old/events?limit=1&cursor=${cursorOf('9')}`,
        '/identities/{id}/events',
        `/identities/cy/events?limit=1&cursor=${cursorOf('9')}`,
      ],
    ]) {
      const res = await get(path, template);
      expect([path, res.status, res.headers.location, res.text]).toStrictEqual([
        path,
        308,
        admin(location),
        '',
      ]);
    }
  });

  it('shows an identity’s change log newest first, a page at a time, as the command line prints it', async () => {
    const ann = tenant.as(ANN.token);
    await ann.put('', { displayName: 'Ann L.' }).expect(200);
    await ann.put('', { locality: 'fr-FR' }).expect(200);
    await tenant.as(BOB.token).put('', { displayName: 'Bobby' }).expect(200);
    const log = await t.app.get(EventsService).listEvents(tenant.id, 0n);
    const anns = log.filter((event) => event.identityId === 'ann').reverse();
    expect(anns.map((event) => [event.type, event.fields])).toStrictEqual([
      ['updated', expect.arrayContaining(['locality'])],
      ['updated', ['displayName']],
      ['imported', expect.arrayContaining(['displayName', 'emailAddresses'])],
    ]);
    const whole = await get(
      '/identities/ann/events',
      '/identities/{id}/events',
    );
    expect([whole.status, whole.body, whole.headers.link]).toStrictEqual([
      200,
      anns,
      undefined,
    ]);
    expect(Object.keys(whole.body[0]).sort()).toStrictEqual([
      'fields',
      'id',
      'identityId',
      'occurredAt',
      'tenantId',
      'type',
    ]);
    const first = await get(
      '/identities/ann/events?limit=2',
      '/identities/{id}/events',
    );
    expect([first.body, nextOf(first)]).toStrictEqual([
      anns.slice(0, 2),
      admin(`/identities/ann/events?limit=2&cursor=${cursorOf(anns[1].id)}`),
    ]);
    const rest = await get(nextOf(first)!, '/identities/{id}/events');
    expect([rest.body, rest.headers.link]).toStrictEqual([
      anns.slice(2),
      undefined,
    ]);
  });

  it('lists the tokens of one identity or one app, the next page’s link repeating the filter', async () => {
    const all = (await get('/tokens', '/tokens')).body as {
      tokenId: string;
      createdAt: string;
      identityId?: string;
      appId?: string;
    }[];
    const anns = all.filter((entry) => entry.identityId === 'ann');
    expect(anns).toHaveLength(2);
    const res = await get('/tokens?identityId=ann', '/tokens');
    expect([res.status, res.body]).toStrictEqual([200, anns]);
    const first = await get('/tokens?identityId=ann&limit=1', '/tokens');
    expect([first.body, nextOf(first)]).toStrictEqual([
      anns.slice(0, 1),
      admin(
        `/tokens?identityId=ann&limit=1&cursor=${cursorOf(anns[0].createdAt, anns[0].tokenId)}`,
      ),
    ]);
    expect((await get(nextOf(first)!, '/tokens')).body).toStrictEqual(
      anns.slice(1),
    );
    expect((await get('/tokens?appId=crm', '/tokens')).body).toStrictEqual(
      all.filter((entry) => entry.appId === 'crm'),
    );
    expect(
      (await get('/tokens?identityId=nobody', '/tokens')).body,
    ).toStrictEqual([]);
  });

  it('answers 404 for an identity the tenant does not have', async () => {
    for (const what of ['', '/accounts', '/friends', '/roles', '/events']) {
      const path = `/identities/nobody${what}`;
      const res = await get(path, `/identities/{id}${what}`);
      expect([res.status, res.body]).toStrictEqual([
        404,
        {
          ...problemBody(
            404,
            'identity-not-found',
            'No identity "nobody" is visible to the caller in this tenant.',
            admin(path),
          ),
          title: 'Identity not found',
        },
      ]);
    }
  });

  it('counts the characters of q as code points, as the document’s maxLength does', async () => {
    const res = await get(
      `/identities?q=${encodeURIComponent('😀'.repeat(200))}`,
      '/identities',
    );
    expect([res.status, res.body]).toStrictEqual([200, []]);
  });

  it('refuses a q, limit or cursor it cannot take: 400 naming it', async () => {
    for (const [query, field, message] of [
      ['q=', 'q', 'must be 1 to 200 characters'],
      [`q=${'x'.repeat(201)}`, 'q', 'must be 1 to 200 characters'],
      ['q=a&q=b', 'q', 'must be given once'],
      ['q=a%00b', 'q', 'must not contain U+0000 or a lone surrogate'],
      ['limit=0', 'limit', 'must be a whole number from 1 to 1000'],
      ['limit=1001', 'limit', 'must be a whole number from 1 to 1000'],
      ['cursor=%21', 'cursor', 'is not a cursor this service issued'],
      [
        `cursor=${cursorOf('a', 'b')}`,
        'cursor',
        'is not a cursor this service issued',
      ],
    ]) {
      const res = await get(`/identities?${query}`, '/identities');
      expect([query, res.status, res.body]).toStrictEqual([
        query,
        ...refusal('/identities', field, message),
      ]);
    }
    for (const [path, field, message] of [
      [
        `/identities/ann/events?cursor=${cursorOf('9223372036854775808')}`,
        'cursor',
        'is not a cursor this service issued',
      ],
      [
        '/identities/ann/events?limit=x',
        'limit',
        'must be a whole number from 1 to 1000',
      ],
      [
        '/identities/ann/friends?limit=0',
        'limit',
        'must be a whole number from 1 to 1000',
      ],
      ['/tokens?identityId=', 'identityId', 'must be 1 to 128 characters'],
      ['/tokens?appId=', 'appId', 'must be 1 to 200 characters'],
    ]) {
      const template = path.split('?')[0].replace('/ann/', '/{id}/');
      const res = await get(path, template);
      expect([path, res.status, res.body]).toStrictEqual([
        path,
        ...refusal(path.split('?')[0], field, message),
      ]);
    }
  });

  it('is for tenant:admin app tokens of this tenant only, and writes no audit entry', async () => {
    const paths = [
      ['/identities', '/identities'],
      ['/identities/ann', '/identities/{id}'],
      ['/identities/ann/accounts', '/identities/{id}/accounts'],
      ['/identities/ann/friends', '/identities/{id}/friends'],
      ['/identities/ann/roles', '/identities/{id}/roles'],
      ['/identities/ann/events', '/identities/{id}/events'],
    ];
    // Refused for the caller alone, before the id is looked at: one no
    // identity can have is 403 too, not 404.
    const refusedPaths = [
      ...paths,
      ['/identities/a%00b/roles', '/identities/{id}/roles'],
    ];
    for (const [path, template] of refusedPaths)
      for (const secret of [READER.token, ANN.token, CRM.token]) {
        const res = await get(path, template, secret);
        expect([path, res.status, res.body]).toStrictEqual([
          path,
          403,
          {
            ...problemBody(
              403,
              'forbidden',
              'The admin API needs an app token with the tenant:admin scope.',
              admin(path),
            ),
            title: 'Forbidden',
          },
        ]);
      }
    // Another tenant's admin token finds no administration here.
    const other = await t.newTenant(FILE);
    for (const [path, template] of paths) {
      const res = await t
        .http()
        .get(admin(path))
        .set('Authorization', `Bearer ${other.token(ADMIN.token)}`);
      expectConforms(res, 'GET', `/{tenant}/api/admin/v1${template}`);
      expect([path, res.status, res.body]).toStrictEqual([
        path,
        404,
        {
          ...problemBody(
            404,
            'not-found',
            `There is no resource at ${admin(path)}.`,
            admin(path),
          ),
          title: 'Not found',
        },
      ]);
    }
    expect((await get('/events', '/events')).body).toStrictEqual([]);
  });
});
