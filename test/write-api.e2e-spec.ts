import { IdentityService } from '../src/identity/identity.service';
import { API, bearer, example, TOKENS } from './support/example';
import { snapshot } from './support/snapshot';
import { startTestApp, TestApp } from './support/test-app';

const json = { 'Content-Type': 'application/json' };

describe('PUT and DELETE', () => {
  let t: TestApp;
  const events = (identityId: string) =>
    t.database.prisma.identityEvent.findMany({
      where: { tenantId: 'example', identityId },
      orderBy: { id: 'asc' },
      select: { type: true, fields: true, relatedIdentityId: true },
    });

  beforeEach(async () => {
    const file = example();
    file.identities.push({ identityId: 'pat', displayName: 'Pat' });
    file.tokens.push({
      token: 'example-pat-access-token-00001',
      type: 'access',
      identityId: 'pat',
    });
    file.identities.push({
      identityId: 'olga',
      displayName: 'Olga',
      friends: ['charles'],
      roles: ['member'],
    });
    file.tokens.push({
      token: 'example-olga-access-token-0001',
      type: 'access',
      identityId: 'olga',
    });
    t = await startTestApp([file]);
  });
  afterEach(() => t.close());

  describe('PUT of the current identity', () => {
    it('keeps left-out fields, clears nulls, replaces properties, and answers the whole identity with its new ETag', async () => {
      const before = await t
        .http()
        .get(API)
        .set(bearer(TOKENS.ada))
        .expect(200);
      const res = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send({
          displayName: 'Ada King',
          surnames: null,
          mobilePhone: null,
          properties: { team: 'Engines' },
        })
        .expect(200);
      expect(res.headers['content-type']).toBe(
        'application/json; charset=utf-8',
      );
      const {
        displayName: _d,
        surname: _s,
        mobilePhone: _m,
        ...unchanged
      } = before.body;
      expect(res.body).toStrictEqual({
        ...unchanged,
        displayName: 'Ada King',
        surnames: ['Lovelace'],
        surname: 'Lovelace',
        mobilePhoneVerified: false,
        properties: { team: 'Engines' },
      });
      expect(res.headers.etag).toMatch(/^"\d+"$/);
      expect(res.headers.etag).not.toBe(before.headers.etag);
      const after = await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
      expect(after.body).toStrictEqual(res.body);
      expect(after.headers.etag).toBe(res.headers.etag);
      expect(await events('ada')).toStrictEqual([
        expect.objectContaining({ type: 'imported' }),
        {
          type: 'updated',
          fields: [
            'displayName',
            'surnames',
            'mobilePhone',
            'properties',
            'mobilePhoneVerified',
          ],
          relatedIdentityId: null,
        },
      ]);
    });

    it('clears a primary value and its list', async () => {
      const res = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send({ surname: null, surnames: null, properties: null })
        .expect(200);
      expect(res.body.surname).toBeUndefined();
      expect(res.body.surnames).toStrictEqual([]);
      expect(res.body.properties).toStrictEqual({});
    });

    it('unverifies a changed e-mail address and keeps a re-sent one verified', async () => {
      const same = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send({ emailAddress: 'ada@example.org' })
        .expect(200);
      expect(same.body.emailAddressVerified).toBe(true);
      const changed = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send({ emailAddress: 'ada@new.example' })
        .expect(200);
      expect(changed.body).toMatchObject({
        emailAddress: 'ada@new.example',
        emailAddresses: [
          'ada@new.example',
          'ada@example.org',
          'countess@example.net',
        ],
        emailAddressVerified: false,
        mobilePhoneVerified: true,
      });
    });

    it('unverifies a changed mobile phone', async () => {
      const res = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send({ mobilePhone: '+44 1' })
        .expect(200);
      expect(res.body).toMatchObject({
        mobilePhone: '+44 1',
        mobilePhoneVerified: false,
        emailAddressVerified: true,
      });
    });

    it('changes nothing, not even the ETag, for a body without changes', async () => {
      const before = await t
        .http()
        .get(API)
        .set(bearer(TOKENS.ada))
        .expect(200);
      const res = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send({ displayName: 'Ada Lovelace' })
        .expect(200);
      expect(res.headers.etag).toBe(before.headers.etag);
      expect(await events('ada')).toHaveLength(1);
    });

    it.each([
      [
        { identityId: 'x', disabled: true, nickname: 'a' },
        'The body has read-only or unknown fields: identityId, disabled, nickname.',
        [
          { field: 'identityId', message: 'is read-only' },
          { field: 'disabled', message: 'is read-only' },
          { field: 'nickname', message: 'is not a known field' },
        ],
      ],
      [
        JSON.parse('{"__proto__":{"isAdmin":true}}'),
        'The body has read-only or unknown fields: __proto__.',
        [{ field: '__proto__', message: 'is not an allowed key' }],
      ],
      [
        { properties: JSON.parse('{"constructor":"x"}') },
        'The body has read-only or unknown fields: properties.constructor.',
        [{ field: 'properties.constructor', message: 'is not an allowed key' }],
      ],
    ])(
      'refuses read-only, unknown and unsafe fields, naming them: %j',
      async (body, detail, errors) => {
        const before = await snapshot(t);
        const res = await t
          .http()
          .put(API)
          .set(bearer(TOKENS.ada))
          .set(json)
          .send(body)
          .expect(400);
        expect(res.body).toStrictEqual({
          type: 'urn:problem:identity:invalid-request',
          title: 'Invalid request',
          status: 400,
          detail,
          instance: API,
          errors,
        });
        expect(await snapshot(t)).toStrictEqual(before);
      },
    );

    it.each([
      [
        { locality: 'english' },
        'locality',
        'must be a locality of the form xx-XX (ISO 639-1 language, ISO 3166-1 country)',
      ],
      [{ emailAddress: 'nope' }, 'emailAddress', 'must be an e-mail address'],
      [{ displayName: 7 }, 'displayName', 'must be a string'],
      [
        { displayName: 'x'.repeat(513) },
        'displayName',
        'must be at most 512 characters',
      ],
      [
        { givenNames: Array(51).fill('a') },
        'givenNames',
        'must have at most 50 items',
      ],
      [
        { givenNames: ['x'.repeat(513)] },
        'givenNames',
        'each item must be at most 512 characters',
      ],
      [
        { smallPictures: ['ftp://x.example/a'] },
        'smallPictures',
        'each item must be an absolute http(s) URL',
      ],
      [
        {
          properties: Object.fromEntries(
            Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v']),
          ),
        },
        'properties',
        'must have at most 100 properties, each name and value at most 512 characters',
      ],
      [
        { properties: { a: 1 } },
        'properties',
        'must be an object whose values are strings (no U+0000)',
      ],
      [{ localities: 'en-GB' }, 'localities', 'must be an array'],
    ])(
      'validates values with the import rules and limits: %j',
      async (body, field, message) => {
        const before = await snapshot(t);
        const res = await t
          .http()
          .put(API)
          .set(bearer(TOKENS.ada))
          .set(json)
          .send(body)
          .expect(400);
        expect(res.body.errors).toStrictEqual([{ field, message }]);
        expect(await snapshot(t)).toStrictEqual(before);
      },
    );

    it('answers 400 for malformed JSON and for a body that is not an object', async () => {
      const bad = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send('{"displayName":')
        .expect(400);
      expect(bad.body).toStrictEqual({
        type: 'urn:problem:identity:malformed-json',
        title: 'Bad Request',
        status: 400,
        detail: 'The request body is not valid JSON.',
        instance: API,
      });
      const list = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send('[1]')
        .expect(400);
      expect(list.body.detail).toBe('The body must be a JSON object.');
    });

    it('answers 415 for a body that is not JSON and 413 for one over 64 KiB', async () => {
      const form = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .type('form')
        .send('displayName=x')
        .expect(415);
      expect(form.body).toStrictEqual({
        type: 'urn:problem:identity:unsupported-media-type',
        title: 'Unsupported media type',
        status: 415,
        detail: 'The request body must be application/json.',
        instance: API,
      });
      const big = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send({ displayName: 'x'.repeat(70_000) })
        .expect(413);
      expect(big.body.type).toBe('urn:problem:identity:payload-too-large');
    });

    it('is for access tokens only', async () => {
      await t
        .http()
        .put(API)
        .set(bearer(TOKENS.janitor))
        .set(json)
        .send({ displayName: 'x' })
        .expect(403);
    });
  });

  describe('If-Match', () => {
    it('answers 412 for a stale tag and changes nothing', async () => {
      const { headers } = await t
        .http()
        .get(API)
        .set(bearer(TOKENS.ada))
        .expect(200);
      await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .set('If-Match', headers.etag)
        .send({ displayName: 'One' })
        .expect(200);
      const before = await snapshot(t);
      const stale = await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .set('If-Match', headers.etag)
        .send({ displayName: 'Two' })
        .expect(412);
      expect(stale.body).toStrictEqual({
        type: 'urn:problem:identity:precondition-failed',
        title: 'Precondition failed',
        status: 412,
        detail:
          'If-Match does not match the current ETag of the identity; fetch it again and retry.',
        instance: API,
      });
      await t
        .http()
        .delete(API)
        .set(bearer(TOKENS.ada))
        .set('If-Match', headers.etag)
        .expect(412);
      expect(await snapshot(t)).toStrictEqual(before);
    });

    it('lets exactly one of several writers holding the same tag win', async () => {
      const { headers } = await t
        .http()
        .get(API)
        .set(bearer(TOKENS.ada))
        .expect(200);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t
            .http()
            .put(API)
            .set(bearer(TOKENS.ada))
            .set(json)
            .set('If-Match', headers.etag)
            .send({ displayName: `Writer ${i}` }),
        ),
      );
      const statuses = results.map((r) => r.status).sort((a, b) => a - b);
      expect(statuses).toStrictEqual([200, 412, 412, 412, 412, 412, 412, 412]);
      const winner = results.find((r) => r.status === 200)!;
      const now = await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
      expect(now.body.displayName).toBe(winner.body.displayName);
      expect(
        (await events('ada')).filter((e) => e.type === 'updated'),
      ).toHaveLength(1);
    });

    it('applies every one of several writers without a tag, one after the other', async () => {
      const results = await Promise.all(
        ['givenNames', 'surnames', 'localities', 'smallPictures'].map(
          (field, i) =>
            t
              .http()
              .put(API)
              .set(bearer(TOKENS.ada))
              .set(json)
              .send({
                [field]:
                  field === 'smallPictures'
                    ? [`https://p.example/${i}`]
                    : field === 'localities'
                      ? ['de-DE']
                      : [`V${i}`],
              }),
        ),
      );
      expect(results.map((r) => r.status)).toStrictEqual([200, 200, 200, 200]);
      const now = await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
      expect(now.body).toMatchObject({
        givenNames: ['Ada', 'V0'],
        surnames: ['Lovelace', 'V1'],
        localities: ['en-GB', 'de-DE'],
        smallPictures: ['https://p.example/3'],
      });
      expect(
        (await events('ada')).filter((e) => e.type === 'updated'),
      ).toHaveLength(4);
    });

    it('plans again on the current state when the state read with the token is already stale', async () => {
      const identities = t.app.get(IdentityService);
      const read = await t.database.prisma.identity.findUniqueOrThrow({
        where: {
          tenantId_identityId: { tenantId: 'example', identityId: 'ada' },
        },
        omit: { tenantId: true, createdAt: true, updatedAt: true },
      });
      // Another writer changes the identity after the request read it.
      await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .send({ surnames: ['Lovelace', 'Byron'] })
        .expect(200);
      const { body, etag } = await identities.updateIdentity(
        'example',
        'ada',
        read,
        { displayName: 'Countess' },
      );
      expect(body).toMatchObject({
        displayName: 'Countess',
        surnames: ['Lovelace', 'Byron'],
      });
      const now = await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
      expect(now.headers.etag).toBe(etag);
      expect(now.body).toStrictEqual(body);
      expect(
        (await events('ada')).filter((e) => e.type === 'updated'),
      ).toStrictEqual([
        { type: 'updated', fields: ['surnames'], relatedIdentityId: null },
        { type: 'updated', fields: ['displayName'], relatedIdentityId: null },
      ]);
      // With the tag of that stale state, the write is refused.
      await expect(
        identities.updateIdentity(
          'example',
          'ada',
          read,
          { displayName: 'Ada' },
          `"${read.version}"`,
        ),
      ).rejects.toMatchObject({ status: 412 });
    });

    it('accepts the current tag and *', async () => {
      const { headers } = await t
        .http()
        .get(API)
        .set(bearer(TOKENS.ada))
        .expect(200);
      await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .set('If-Match', `"0", ${headers.etag}`)
        .send({ displayName: 'A' })
        .expect(200);
      await t
        .http()
        .put(API)
        .set(bearer(TOKENS.ada))
        .set(json)
        .set('If-Match', '*')
        .send({ displayName: 'B' })
        .expect(200);
    });
  });

  describe('DELETE', () => {
    it('deletes the current identity with its accounts, friendships, roles and tokens', async () => {
      const res = await t
        .http()
        .delete(API)
        .set(bearer(TOKENS.charles))
        .expect(204);
      expect(res.text).toBe('');
      await t.http().get(`${API}/charles`).set(bearer(TOKENS.crm)).expect(404);
      await t.http().get(API).set(bearer(TOKENS.charles)).expect(401);
      const p = t.database.prisma;
      const left = await Promise.all([
        p.account.count({ where: { identityId: 'charles' } }),
        p.friendship.count({
          where: { OR: [{ identityId: 'charles' }, { friendId: 'charles' }] },
        }),
        p.roleAssignment.count({ where: { identityId: 'charles' } }),
        p.token.count({ where: { identityId: 'charles' } }),
      ]);
      expect(left).toStrictEqual([0, 0, 0, 0]);
      const ada = await t
        .http()
        .get(`${API}/friends`)
        .set(bearer(TOKENS.ada))
        .expect(200);
      expect(
        ada.body.map((f: { identityId: string }) => f.identityId),
      ).toStrictEqual(['mary']);
      expect(await events('charles')).toStrictEqual([
        expect.objectContaining({ type: 'imported' }),
        { type: 'deleted', fields: [], relatedIdentityId: null },
      ]);
    });

    it.each([
      ['an admin', TOKENS.ada, 'mary', 204],
      ['an app with identities:delete', TOKENS.janitor, 'mary', 204],
      ['the identity itself, by id', TOKENS.mary, 'mary', 204],
      ['an app with identities:read only', TOKENS.crm, 'mary', 403],
      ['a friend', TOKENS.charles, 'mary', 403],
      ['a stranger', 'example-olga-access-token-0001', 'mary', 404],
      ['an admin, of an unknown identity', TOKENS.ada, 'nobody', 404],
    ])('by id: %s → %i', async (_who, token, id, status) => {
      const before = await snapshot(t);
      await t.http().delete(`${API}/${id}`).set(bearer(token)).expect(status);
      if (status !== 204) expect(await snapshot(t)).toStrictEqual(before);
      else
        await t.http().get(`${API}/${id}`).set(bearer(TOKENS.crm)).expect(404);
    });

    it('never answers 500 while the identity is read and deleted at once', async () => {
      const reads = Array.from({ length: 30 }, (_, i) =>
        t
          .http()
          .get(
            `${API}/charles${['', '/accounts', '/friends', '/roles'][i % 4]}`,
          )
          .set(bearer(TOKENS.crm)),
      );
      const [deleted, ...answers] = await Promise.all([
        t.http().delete(`${API}/charles`).set(bearer(TOKENS.janitor)),
        ...reads,
      ]);
      expect(deleted.status).toBe(204);
      for (const answer of answers) expect([200, 404]).toContain(answer.status);
    });
  });

  describe('merges', () => {
    it('moves accounts, friends and roles, records old ids, and redirects the merged id', async () => {
      const identities = t.app.get(IdentityService);
      const merged = await identities.mergeIdentities(
        'example',
        'mary',
        'charles',
      );
      expect(merged).toMatchObject({
        identityId: 'mary',
        displayName: 'Mary Somerville',
        oldIdentityIds: ['charles'],
      });
      const accounts = await t
        .http()
        .get(`${API}/mary/accounts`)
        .set(bearer(TOKENS.crm))
        .expect(200);
      expect(
        accounts.body.find(
          (p: { accountProviderId: string }) =>
            p.accountProviderId === 'github',
        ).accounts,
      ).toStrictEqual([
        expect.objectContaining({
          accountId: 'acc-charles-github',
          issuedUserId: expect.any(String),
        }),
      ]);
      const friends = await t
        .http()
        .get(`${API}/mary/friends`)
        .set(bearer(TOKENS.crm))
        .expect(200);
      expect(
        friends.body.map((f: { identityId: string }) => f.identityId),
      ).toStrictEqual(['ada', 'olga']);
      const olga = await t
        .http()
        .get(`${API}/olga/friends`)
        .set(bearer(TOKENS.crm))
        .expect(200);
      expect(
        olga.body.map((f: { identityId: string }) => f.identityId),
      ).toStrictEqual(['mary']);
      const roles = await t
        .http()
        .get(`${API}/mary/roles`)
        .set(bearer(TOKENS.crm))
        .expect(200);
      expect(roles.body).toStrictEqual([{ name: 'member' }]);
      const moved = await t
        .http()
        .get(`${API}/charles`)
        .set(bearer(TOKENS.crm))
        .expect(308);
      expect(moved.headers.location).toBe(`${API}/mary`);
      await t
        .http()
        .get(`${API}/charles`)
        .set(bearer('example-pat-access-token-00001'))
        .expect(404);
      await t.http().get(API).set(bearer(TOKENS.charles)).expect(401);
      expect(await events('mary')).toContainEqual({
        type: 'merged',
        fields: ['accounts', 'friends', 'roles', 'oldIdentityIds'],
        relatedIdentityId: 'charles',
      });
      expect((await events('charles')).at(-1)).toStrictEqual({
        type: 'deleted',
        fields: [],
        relatedIdentityId: 'mary',
      });
    });

    it('refuses a merge that breaks a one-account provider and changes nothing', async () => {
      const file = example();
      file.tenant.id = 'clash';
      file.identities[1].accounts = [
        {
          accountId: 'c-pw',
          accountProviderId: 'password',
          issuedUserId: 'charles',
        },
      ];
      file.tokens = [];
      await t.tenants.importTenant(file);
      const before = await snapshot(t);
      const identities = t.app.get(IdentityService);
      await expect(
        identities.mergeIdentities('clash', 'ada', 'charles'),
      ).rejects.toThrow(
        'Both identities have an account at "password", which allows one account per identity; remove one of them first.',
      );
      expect(await snapshot(t)).toStrictEqual(before);
    });
  });
});
