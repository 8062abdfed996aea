import { API, bearer, example, TOKENS } from './support/example';
import { useTestApp } from './support/test-app';

const problem = (
  status: number,
  slug: string,
  title: string,
  detail: string,
  instance: string,
) => ({
  type: `urn:problem:identity:${slug}`,
  title,
  status,
  detail,
  instance,
});

describe('HTTP behaviour', () => {
  const t = useTestApp(() => {
    const file = example();
    // Ties and absent names for the ordering rules.
    file.identities.push(
      { identityId: 'z1', displayName: 'Same Name', friends: ['ada'] },
      { identityId: 'a1', displayName: 'Same Name', friends: ['ada'] },
      { identityId: 'nameless', friends: ['ada'] },
    );
    return { tenants: [file] };
  });

  describe('errors', () => {
    it('answers an unknown route with 404 problem+json', async () => {
      const res = await t
        .http()
        .get('/nowhere/at/all?access_token=secret-token-value')
        .expect(404);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.body).toStrictEqual(
        problem(
          404,
          'not-found',
          'Not found',
          'There is no resource at /nowhere/at/all.',
          '/nowhere/at/all',
        ),
      );
      expect(JSON.stringify(res.body)).not.toContain('secret-token-value');
    });

    it('answers a wrong method with 405 and Allow', async () => {
      for (const [method, path, allow] of [
        ['post', API, 'GET, HEAD, PUT, DELETE'],
        ['put', `${API}/ada`, 'GET, HEAD, DELETE'],
        ['delete', `${API}/accounts`, 'GET, HEAD'],
        ['patch', `${API}/ada/roles`, 'GET, HEAD'],
      ] as const) {
        const res = await t
          .http()
          [method](path)
          .set(bearer(TOKENS.ada))
          .expect(405);
        expect(res.headers.allow).toBe(allow);
        expect(res.body).toStrictEqual(
          problem(
            405,
            'method-not-allowed',
            'Method not allowed',
            `${method.toUpperCase()} is not allowed here; allowed: ${allow}.`,
            path,
          ),
        );
      }
    });

    it('answers OPTIONS with the allowed methods', async () => {
      const res = await t.http().options(`${API}/ada/friends`).expect(204);
      expect(res.headers.allow).toBe('OPTIONS, GET, HEAD');
    });

    it('answers 406 when Accept excludes JSON', async () => {
      const res = await t
        .as(TOKENS.ada)
        .get(API)
        .set('Accept', 'text/html')
        .expect(406);
      expect(res.body).toStrictEqual(
        problem(
          406,
          'not-acceptable',
          'Not acceptable',
          'This resource is only available as application/json.',
          API,
        ),
      );
      await t
        .as(TOKENS.ada)
        .get(API)
        .set('Accept', 'text/html, application/*;q=0.5')
        .expect(200);
    });

    it('refuses two tokens with 400', async () => {
      const both = await t
        .as(TOKENS.ada)
        .get(`${API}?access_token=${TOKENS.ada}`)
        .expect(400);
      expect(both.body).toStrictEqual(
        problem(
          400,
          'invalid-request',
          'Invalid request',
          'Send the access token either in the Authorization header or in access_token, not both.',
          API,
        ),
      );
      const twice = await t
        .http()
        .get(`${API}?access_token=${TOKENS.ada}&access_token=${TOKENS.ada}`)
        .expect(400);
      expect(twice.body.detail).toBe(
        'Send one access token, not several access_token parameters.',
      );
      expect(JSON.stringify([both.body, twice.body])).not.toContain(TOKENS.ada);
    });

    it('answers 401 with the challenge of RFC 6750', async () => {
      const none = await t.http().get(API).expect(401);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="example"');
      expect(none.body).toStrictEqual(
        problem(
          401,
          'unauthorized',
          'Authentication required',
          'Send an access token in the Authorization header (Bearer) or in the access_token query parameter.',
          API,
        ),
      );
      const wrong = await t.as('not-a-known-token-at-all').get(API).expect(401);
      expect(wrong.headers['www-authenticate']).toBe(
        'Bearer realm="example", error="invalid_token"',
      );
      expect(JSON.stringify(wrong.body)).not.toContain(
        'not-a-known-token-at-all',
      );
    });

    it('carries a request id, echoing a sane one the client sent', async () => {
      const res = await t
        .as(TOKENS.ada)
        .get(API)
        .set('X-Request-Id', 'trace-123')
        .expect(200);
      expect(res.headers['x-request-id']).toBe('trace-123');
      const generated = await t
        .as(TOKENS.ada)
        .get(API)
        .set('X-Request-Id', 'bad id with spaces')
        .expect(200);
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('caching', () => {
    it('answers 304 for a current ETag and 200 for a stale one', async () => {
      const first = await t.as(TOKENS.ada).get(API).expect(200);
      const etag = first.headers.etag;
      const again = await t
        .as(TOKENS.ada)
        .get(API)
        .set('If-None-Match', etag)
        .expect(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(etag);
      await t.as(TOKENS.ada).get(API).set('If-None-Match', '"0"').expect(200);
    });

    it('gives a reduced representation its own tag', async () => {
      const full = await t.as(TOKENS.ada).get(`${API}/mary`).expect(200);
      const pub = await t.as(TOKENS.charles).get(`${API}/mary`).expect(200);
      const some = await t
        .as(TOKENS.ada)
        .get(`${API}/mary?fields=displayName`)
        .expect(200);
      expect(
        new Set([full.headers.etag, pub.headers.etag, some.headers.etag]).size,
      ).toBe(3);
    });

    it('sets Cache-Control on errors too', async () => {
      const res = await t
        .http()
        .get(`${API}/nobody?access_token=${TOKENS.ada}`)
        .expect(404);
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  describe('field selection', () => {
    it('returns only the named fields and identityId', async () => {
      const res = await t
        .as(TOKENS.ada)
        .get(`${API}?fields=displayName,emailAddresses,properties`)
        .expect(200);
      expect(res.body).toStrictEqual({
        identityId: 'ada',
        displayName: 'Ada Lovelace',
        emailAddresses: ['ada@example.org', 'countess@example.net'],
        properties: {
          department: 'Analytical Engines',
          employeeNumber: '1815',
        },
      });
    });

    it('cannot widen a friend’s public view', async () => {
      const res = await t
        .as(TOKENS.charles)
        .get(`${API}/mary?fields=displayName,emailAddress`)
        .expect(200);
      expect(res.body).toStrictEqual({
        identityId: 'mary',
        displayName: 'Mary Somerville',
      });
    });

    it('answers 400 naming an unknown field', async () => {
      const res = await t
        .as(TOKENS.ada)
        .get(`${API}?fields=displayName,password`)
        .expect(400);
      expect(res.body).toStrictEqual({
        ...problem(
          400,
          'invalid-request',
          'Invalid request',
          'Unknown field in fields: "password".',
          API,
        ),
        errors: [{ field: 'fields', message: 'unknown field "password"' }],
      });
    });

    it('answers 400 to fields with brackets, which it does not read', async () => {
      for (const query of ['fields[]=displayName', 'fields[a]=displayName']) {
        const res = await t.as(TOKENS.ada).get(`${API}?${query}`).expect(400);
        expect([query, res.body]).toStrictEqual([
          query,
          {
            ...problem(
              400,
              'invalid-request',
              'Invalid request',
              'fields is given once, as fields=…, not with brackets.',
              API,
            ),
            errors: [
              {
                field: 'fields',
                message: 'must be given once, without brackets',
              },
            ],
          },
        ]);
      }
    });
  });

  describe('pagination', () => {
    const ORDER = ['nameless', 'charles', 'mary', 'a1', 'z1'];

    it('orders friends by display name, then id, absent names first', async () => {
      const res = await t.as(TOKENS.ada).get(`${API}/friends`).expect(200);
      expect(
        res.body.map((f: { identityId: string }) => f.identityId),
      ).toStrictEqual(ORDER);
      expect(res.headers.link).toBeUndefined();
    });

    it('walks the pages through Link rel="next"', async () => {
      const seen: string[] = [];
      let next: string | undefined = `${API}/friends?limit=2`;
      let pages = 0;
      while (next) {
        const res: {
          body: { identityId: string }[];
          headers: Record<string, string>;
        } = await t.as(TOKENS.ada).get(next).expect(200);
        expect(res.body.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.map((f) => f.identityId));
        next = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];
        pages += 1;
      }
      expect(seen).toStrictEqual(ORDER);
      expect(pages).toBe(3);
    });

    it('pages roles too', async () => {
      const first = await t
        .as(TOKENS.ada)
        .get(`${API}/roles?limit=1`)
        .expect(200);
      expect(first.body).toStrictEqual([{ name: 'admin' }]);
      const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.link)![1];
      expect(next).toMatch(
        new RegExp(`^${API}/roles\\?limit=1&cursor=[A-Za-z0-9_-]+$`),
      );
      const second = await t.as(TOKENS.ada).get(next).expect(200);
      expect(second.body).toStrictEqual([{ name: 'member' }]);
      expect(second.headers.link).toBeUndefined();
    });

    it.each([
      ['limit=0', 'limit', 'must be a whole number from 1 to 1000'],
      ['limit=1001', 'limit', 'must be a whole number from 1 to 1000'],
      ['limit=abc', 'limit', 'must be a whole number from 1 to 1000'],
      [
        'limit=2&cursor=not*base64',
        'cursor',
        'is not a cursor this service issued',
      ],
      [
        'limit=2&cursor=bm90LWpzb24',
        'cursor',
        'is not a cursor this service issued',
      ],
    ])('answers 400 for %s', async (query, field, message) => {
      const res = await t
        .as(TOKENS.ada)
        .get(`${API}/friends?${query}`)
        .expect(400);
      expect(res.body.errors).toStrictEqual([{ field, message }]);
    });
  });

  describe('merged identities', () => {
    it('redirects an old id to the identity it was merged into', async () => {
      const res = await t.as(TOKENS.crm).get(`${API}/ada-old`).expect(308);
      expect(res.headers.location).toBe(`${API}/ada`);
      const rel = await t
        .as(TOKENS.crm)
        .get(`${API}/ada-old/roles`)
        .expect(308);
      expect(rel.headers.location).toBe(`${API}/ada/roles`);
    });

    it('keeps the query on the way, never a token in it', async () => {
      const page = await t
        .as(TOKENS.crm)
        .get(`${API}/ada-old/friends?limit=1&cursor=abc`)
        .expect(308);
      expect(page.headers.location).toBe(
        `${API}/ada/friends?limit=1&cursor=abc`,
      );
      for (const name of ['access_token', 'access%5Ftoken']) {
        const res = await t
          .http()
          .get(`${API}/ada-old/friends?limit=1&${name}=${TOKENS.crm}`)
          .expect(308);
        expect([name, res.headers.location]).toStrictEqual([
          name,
          `${API}/ada/friends?limit=1`,
        ]);
      }
      const spelled = await t
        .as(TOKENS.crm)
        .get(`${API}/ada-old/friends?ACCESS_TOKEN=x&limit=1`)
        .expect(308);
      expect(spelled.headers.location).toBe(`${API}/ada/friends?limit=1`);
    });

    it('answers 404 to callers who may not read the merged identity', async () => {
      await t.as(TOKENS.mary).get(`${API}/ada-old/roles`).expect(404);
    });
  });
});
