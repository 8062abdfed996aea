import { contentTag } from '../src/common/http/conditional';
import {
  FriendsRepository,
  HELD_WHOLE,
} from '../src/friends/friends.repository';
import { identity, tenantFile, token } from './support/factories';
import { wholeJson } from './support/lists';
import { useTenant, useTestApp } from './support/test-app';

// A whole friend list longer than HELD_WHOLE streams (docs/architecture.md,
// "Long lists stream"): the client sees the same JSON as the pages of it
// give, chunked, with a tag of its bytes — on the embedded database, whose
// one session no cursor may hold, as well.

const FRIENDS = HELD_WHOLE + 101;
const friendId = (n: number) => `f${String(n).padStart(4, '0')}`;
const APP = token({ appId: 'crm', scopes: ['identities:read'] });
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const MANY = token({ identityId: 'many' });

const FILE = tenantFile({
  adminRoles: ['admin'],
  identities: [
    identity('many', {
      displayName: 'Many',
      friends: Array.from({ length: FRIENDS }, (_, n) => friendId(n)),
    }),
    identity('few', { friends: ['f0000', 'f0001'] }),
    // Names out of id order, some absent, some sharing one: the order is the
    // display name, then the id, across the pieces of the stream.
    ...Array.from({ length: FRIENDS }, (_, n) =>
      identity(friendId(n), {
        ...(n % 7 === 0 ? {} : { displayName: `Friend ${(n * 37) % 300}` }),
        ...(n % 5 === 0 && {
          smallPictures: [`https://pictures.example/${n}/s.jpg`],
        }),
      }),
    ),
  ],
  tokens: [APP, ADMIN, MANY],
});

describe('a whole friend list longer than HELD_WHOLE', () => {
  const t = useTestApp();
  const tenant = useTenant(t, FILE);
  const api = () => `/${tenant.id}/api/identity/v1`;

  /** The list read page by page (limit=1000), the pages' arrays joined. */
  async function byPages(path: string, as: string): Promise<unknown[]> {
    const items: unknown[] = [];
    let next: string | undefined = `${path}?limit=1000`;
    while (next) {
      const res: { body: unknown[]; headers: Record<string, string> } = await t
        .as(tenant.token(as))
        .get(next)
        .expect(200);
      items.push(...res.body);
      next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
    }
    return items;
  }

  it('answers the JSON its pages give, chunked, with the tag of its bytes', async () => {
    const path = `${api()}/many/friends`;
    const res = await t.as(tenant.token(APP.token)).get(path).expect(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.etag).toBe(contentTag(res.text));
    expect(res.headers.link).toBeUndefined();
    const items = await byPages(path, APP.token);
    expect(items).toHaveLength(FRIENDS);
    expect(res.text).toBe(JSON.stringify(items));
    // The caller's own list, and the admin API's, are the same list.
    const own = await t
      .as(tenant.token(MANY.token))
      .get(`${api()}/friends`)
      .expect(200);
    expect([own.text, own.headers.etag]).toStrictEqual([
      res.text,
      res.headers.etag,
    ]);
    const admin = await t
      .as(tenant.token(ADMIN.token))
      .get(`/${tenant.id}/api/admin/v1/identities/many/friends`)
      .expect(200);
    expect([admin.text, admin.headers.etag]).toStrictEqual([
      res.text,
      res.headers.etag,
    ]);
  });

  it('is read as a read: the request has not written', async () => {
    const repository = t.app.get(FriendsRepository);
    const wrote = await t.database.readFrom(undefined, async () => {
      const { items } = await repository.findFriends(tenant.id, 'many', {});
      expect(typeof items).toBe('object');
      await wholeJson(items);
      return t.database.requestWrote;
    });
    expect(wrote).toBe(false);
  });

  it('answers 304 to its tag and HEAD with its headers, without a body', async () => {
    const path = `${api()}/many/friends`;
    const { headers } = await t
      .as(tenant.token(APP.token))
      .get(path)
      .expect(200);
    const unchanged = await t
      .as(tenant.token(APP.token))
      .get(path)
      .set('If-None-Match', `"other", ${headers.etag}`)
      .expect(304);
    expect([unchanged.text, unchanged.headers.etag]).toStrictEqual([
      '',
      headers.etag,
    ]);
    const head = await t
      .http()
      .head(path)
      .set('Authorization', `Bearer ${tenant.token(APP.token)}`)
      .expect(200);
    expect([
      head.text,
      head.headers.etag,
      head.headers['content-type'],
    ]).toStrictEqual([
      undefined,
      headers.etag,
      'application/json; charset=utf-8',
    ]);
  });

  it('answers a list within HELD_WHOLE whole, with its length', async () => {
    const res = await t
      .as(tenant.token(APP.token))
      .get(`${api()}/few/friends`)
      .expect(200);
    expect(res.body).toStrictEqual([
      {
        identityId: 'f0000',
        smallPictures: ['https://pictures.example/0/s.jpg'],
      },
      { identityId: 'f0001', displayName: 'Friend 37' },
    ]);
    expect(res.headers['content-length']).toBe(String(res.text.length));
    expect(res.headers.etag).toBe(contentTag(res.text));
  });

  it('pages as before: a limit answers a page, never a stream', async () => {
    const res = await t
      .as(tenant.token(APP.token))
      .get(`${api()}/many/friends?limit=1000`)
      .expect(200);
    expect(res.headers['content-length']).toBe(
      String(Buffer.byteLength(res.text)),
    );
    expect(res.body).toHaveLength(FRIENDS);
    expect(res.headers.link).toBeUndefined();
  });
});
