import { API, bearer, example, TOKENS } from './support/example';
import { useTestApp } from './support/test-app';

// Conditional GETs as fetch() sends them: every fetch() with If-None-Match
// also sends Cache-Control: no-cache, and the origin still evaluates the
// precondition (RFC 9110 §13.2).
describe('conditional GET', () => {
  const t = useTestApp({ tenants: [example()] });

  const get = (path: string, token: string, etag?: string) => {
    const req = t.http().get(path).set(bearer(token));
    return etag
      ? req.set('If-None-Match', etag).set('Cache-Control', 'no-cache')
      : req;
  };

  it.each([
    ['the current identity', API, TOKENS.ada],
    ['another identity', `${API}/mary`, TOKENS.ada],
    ["a friend's public view", `${API}/mary`, TOKENS.charles],
    ['accounts', `${API}/accounts`, TOKENS.ada],
    ['accounts of another identity', `${API}/mary/accounts`, TOKENS.crm],
    ['friends', `${API}/friends`, TOKENS.ada],
    ['a page of friends', `${API}/friends?limit=1`, TOKENS.ada],
    ['roles', `${API}/roles`, TOKENS.ada],
    ['roles of another identity', `${API}/mary/roles`, TOKENS.crm],
  ])(
    '%s: 304 with no body for the current tag, even with Cache-Control: no-cache',
    async (_what, path, token) => {
      const first = await get(path, token).expect(200);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await get(path, token, etag).expect(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('private, no-cache');
      await get(path, token, `W/${etag}`).expect(304);
      await get(path, token, `"other", ${etag}`).expect(304);
      await get(path, token, '*').expect(304);
      const stale = await get(path, token, '"stale"').expect(200);
      expect(stale.body).toStrictEqual(first.body);
      expect(stale.headers.etag).toBe(etag);
    },
  );

  it('gives a collection a new tag when its content changes', async () => {
    const before = await get(`${API}/friends`, TOKENS.ada).expect(200);
    await t
      .http()
      .put(API)
      .set(bearer(TOKENS.mary))
      .set('Content-Type', 'application/json')
      .send({ displayName: 'Mary Somerville (changed)' })
      .expect(200);
    const after = await get(
      `${API}/friends`,
      TOKENS.ada,
      before.headers.etag,
    ).expect(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toContainEqual(
      expect.objectContaining({ displayName: 'Mary Somerville (changed)' }),
    );
  });
});

// decisions.md: a tag says only "the representation you see changed".
describe("the ETag of a friend's public view", () => {
  const t = useTestApp({ tenants: [example()] });

  const view = () =>
    t.http().get(`${API}/mary`).set(bearer(TOKENS.charles)).expect(200);
  const change = (body: object) =>
    t
      .http()
      .put(API)
      .set(bearer(TOKENS.mary))
      .set('Content-Type', 'application/json')
      .send(body)
      .expect(200);

  it('stays when a field the view leaves out changes, and changes with one it shows', async () => {
    const before = await view();
    const own = await t.http().get(API).set(bearer(TOKENS.mary)).expect(200);
    expect(before.body).not.toHaveProperty('mobilePhone');

    const changed = await change({ mobilePhone: '+44 20 7946 0999' });
    expect(changed.headers.etag).not.toBe(own.headers.etag);
    const after = await view();
    expect(after.body).toStrictEqual(before.body);
    expect(after.headers.etag).toBe(before.headers.etag);
    await t
      .http()
      .get(`${API}/mary`)
      .set(bearer(TOKENS.charles))
      .set('If-None-Match', before.headers.etag)
      .expect(304);

    await change({ displayName: 'Mary S.' });
    const renamed = await view();
    expect(renamed.body.displayName).toBe('Mary S.');
    expect(renamed.headers.etag).not.toBe(before.headers.etag);
  });
});
