import type { AccessCaller } from '../src/identity/principal';
import { IdentityRepository } from '../src/identity/identity.repository';
import { IdentityService } from '../src/identity/identity.service';
import { example, TOKENS } from './support/example';
import { snapshot } from './support/snapshot';
import { useTenant, useTestApp } from './support/test-app';

const PAT = 'example-pat-access-token-00001';
const OLGA = 'example-olga-access-token-0001';

// One app for the file; every test writes to a copy of its own of the
// example tenant (with pat, and olga, a friend of charles only).
describe('PUT and DELETE', () => {
  const t = useTestApp();
  const file = example();
  file.identities.push(
    { identityId: 'pat', displayName: 'Pat' },
    {
      identityId: 'olga',
      displayName: 'Olga',
      friends: ['charles'],
      roles: ['member'],
    },
  );
  file.tokens.push(
    { token: PAT, type: 'access', identityId: 'pat' },
    { token: OLGA, type: 'access', identityId: 'olga' },
  );
  const events = (identityId: string) =>
    t.database.prisma.identityEvent.findMany({
      where: { tenantId: ex.id, identityId },
      orderBy: { id: 'asc' },
      select: { type: true, fields: true, relatedIdentityId: true },
    });

  const ex = useTenant(t, file, { each: true });

  describe('PUT of the current identity', () => {
    it('keeps left-out fields, clears nulls, replaces properties, and answers the whole identity with its new ETag', async () => {
      const ada = ex.as(TOKENS.ada);
      const before = await ada.get().expect(200);
      const res = await ada
        .put('', {
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
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(res.headers.etag).not.toBe(before.headers.etag);
      const after = await ada.get().expect(200);
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
      const res = await ex
        .as(TOKENS.ada)
        .put('', { surname: null, surnames: null, properties: null })
        .expect(200);
      expect(res.body.surname).toBeUndefined();
      expect(res.body.surnames).toStrictEqual([]);
      expect(res.body.properties).toStrictEqual({});
    });

    it('unverifies a changed e-mail address and keeps a re-sent one verified', async () => {
      const ada = ex.as(TOKENS.ada);
      const same = await ada
        .put('', { emailAddress: 'ada@example.org' })
        .expect(200);
      expect(same.body.emailAddressVerified).toBe(true);
      const changed = await ada
        .put('', { emailAddress: 'ada@new.example' })
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
      const res = await ex
        .as(TOKENS.ada)
        .put('', { mobilePhone: '+44 1' })
        .expect(200);
      expect(res.body).toMatchObject({
        mobilePhone: '+44 1',
        mobilePhoneVerified: false,
        emailAddressVerified: true,
      });
    });

    it('changes nothing, not even the ETag, for a body without changes', async () => {
      const ada = ex.as(TOKENS.ada);
      const before = await ada.get().expect(200);
      const res = await ada
        .put('', { displayName: 'Ada Lovelace' })
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
        const before = await snapshot(t.database);
        const res = await ex.as(TOKENS.ada).put('', body).expect(400);
        expect(res.body).toStrictEqual({
          type: 'urn:problem:identity:invalid-request',
          title: 'Invalid request',
          status: 400,
          detail,
          instance: ex.api,
          errors,
        });
        expect(await snapshot(t.database)).toStrictEqual(before);
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
        'must be an object whose values are strings (no U+0000 or lone surrogate)',
      ],
      [{ localities: 'en-GB' }, 'localities', 'must be an array'],
    ])(
      'validates values with the import rules and limits: %j',
      async (body, field, message) => {
        const before = await snapshot(t.database);
        const res = await ex.as(TOKENS.ada).put('', body).expect(400);
        expect(res.body.errors).toStrictEqual([{ field, message }]);
        expect(await snapshot(t.database)).toStrictEqual(before);
      },
    );

    it('answers 400 for malformed JSON and for a body that is not an object', async () => {
      const ada = ex.as(TOKENS.ada);
      const bad = await ada.put('', '{"displayName":').expect(400);
      expect(bad.body).toStrictEqual({
        type: 'urn:problem:identity:malformed-json',
        title: 'Bad Request',
        status: 400,
        detail: 'The request body is not valid JSON.',
        instance: ex.api,
      });
      const list = await ada.put('', '[1]').expect(400);
      expect(list.body.detail).toBe('The body must be a JSON object.');
      for (const scalar of ['"x"', '42', 'null', 'true']) {
        const res = await ada.put('', scalar).expect(400);
        expect([scalar, res.body]).toStrictEqual([
          scalar,
          {
            type: 'urn:problem:identity:malformed-json',
            title: 'Bad Request',
            status: 400,
            detail: 'The request body must be a JSON object.',
            instance: ex.api,
          },
        ]);
      }
    });

    it('answers 415 for a body that is not JSON and 413 for one over 64 KiB', async () => {
      const ada = ex.as(TOKENS.ada);
      const form = await ada.put('', 'displayName=x').type('form').expect(415);
      expect(form.body).toStrictEqual({
        type: 'urn:problem:identity:unsupported-media-type',
        title: 'Unsupported media type',
        status: 415,
        detail: 'The request body must be application/json.',
        instance: ex.api,
      });
      const big = await ada
        .put('', { displayName: 'x'.repeat(70_000) })
        .expect(413);
      expect(big.body.type).toBe('urn:problem:identity:payload-too-large');
    });

    it('is for access tokens only', async () => {
      await ex.as(TOKENS.janitor).put('', { displayName: 'x' }).expect(403);
    });
  });

  describe('If-Match', () => {
    it('answers 412 for a stale tag and changes nothing', async () => {
      const ada = ex.as(TOKENS.ada);
      const { headers } = await ada.get().expect(200);
      await ada
        .put('', { displayName: 'One' })
        .set('If-Match', headers.etag)
        .expect(200);
      const before = await snapshot(t.database);
      const stale = await ada
        .put('', { displayName: 'Two' })
        .set('If-Match', headers.etag)
        .expect(412);
      expect(stale.body).toStrictEqual({
        type: 'urn:problem:identity:precondition-failed',
        title: 'Precondition failed',
        status: 412,
        detail:
          'If-Match does not match the current ETag of the identity; fetch it again and retry.',
        instance: ex.api,
      });
      await ada.delete().set('If-Match', headers.etag).expect(412);
      expect(await snapshot(t.database)).toStrictEqual(before);
    });

    it('lets exactly one of several writers holding the same tag win', async () => {
      const ada = ex.as(TOKENS.ada);
      const { headers } = await ada.get().expect(200);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          ada
            .put('', { displayName: `Writer ${i}` })
            .set('If-Match', headers.etag),
        ),
      );
      const statuses = results.map((r) => r.status).sort((a, b) => a - b);
      expect(statuses).toStrictEqual([200, 412, 412, 412, 412, 412, 412, 412]);
      const winner = results.find((r) => r.status === 200)!;
      const now = await ada.get().expect(200);
      expect(now.body.displayName).toBe(winner.body.displayName);
      expect(
        (await events('ada')).filter((e) => e.type === 'updated'),
      ).toHaveLength(1);
    });

    it('applies every one of several writers without a tag, one after the other', async () => {
      const ada = ex.as(TOKENS.ada);
      const results = await Promise.all(
        ['givenNames', 'surnames', 'localities', 'smallPictures'].map(
          (field, i) =>
            ada.put('', {
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
      const now = await ada.get().expect(200);
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
      const ada = ex.as(TOKENS.ada);
      const staleTag = (await ada.get().expect(200)).headers.etag;
      const read = (await t.app
        .get(IdentityRepository)
        .findIdentity(ex.id, 'ada'))!;
      // Another writer changes the identity after the request read it.
      await ada.put('', { surnames: ['Lovelace', 'Byron'] }).expect(200);
      // The caller as authentication read it, before that change.
      const caller: AccessCaller = {
        kind: 'access',
        tenantId: ex.id,
        identityId: 'ada',
        accountId: null,
        isAdmin: true,
        identity: read,
      };
      const { body, etag } = await identities.updateCurrentIdentity(caller, {
        displayName: 'Countess',
      });
      expect(body).toMatchObject({
        displayName: 'Countess',
        surnames: ['Lovelace', 'Byron'],
      });
      const now = await ada.get().expect(200);
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
        identities.updateCurrentIdentity(
          caller,
          { displayName: 'Ada' },
          staleTag,
        ),
      ).rejects.toMatchObject({ status: 412 });
    });

    it('accepts the current tag and *', async () => {
      const ada = ex.as(TOKENS.ada);
      const { headers } = await ada.get().expect(200);
      await ada
        .put('', { displayName: 'A' })
        .set('If-Match', `"0", ${headers.etag}`)
        .expect(200);
      await ada.put('', { displayName: 'B' }).set('If-Match', '*').expect(200);
    });
  });

  describe('DELETE', () => {
    it('deletes the current identity with its accounts, friendships, roles and tokens', async () => {
      const res = await ex.as(TOKENS.charles).delete().expect(204);
      expect(res.text).toBe('');
      await ex.as(TOKENS.crm).get('/charles').expect(404);
      await ex.as(TOKENS.charles).get().expect(401);
      const p = t.database.prisma;
      const tenantId = ex.id;
      const left = await Promise.all([
        p.account.count({ where: { tenantId, identityId: 'charles' } }),
        p.friendship.count({
          where: {
            tenantId,
            OR: [{ identityId: 'charles' }, { friendId: 'charles' }],
          },
        }),
        p.roleAssignment.count({ where: { tenantId, identityId: 'charles' } }),
        p.token.count({ where: { tenantId, identityId: 'charles' } }),
      ]);
      expect(left).toStrictEqual([0, 0, 0, 0]);
      const ada = await ex.as(TOKENS.ada).get('/friends').expect(200);
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
      ['a stranger', OLGA, 'mary', 404],
      ['an admin, of an unknown identity', TOKENS.ada, 'nobody', 404],
    ])('by id: %s → %i', async (_who, token, id, status) => {
      const before = await snapshot(t.database);
      await ex.as(token).delete(`/${id}`).expect(status);
      if (status !== 204)
        expect(await snapshot(t.database)).toStrictEqual(before);
      else await ex.as(TOKENS.crm).get(`/${id}`).expect(404);
    });

    it('never answers 500 while the identity is read and deleted at once', async () => {
      const crm = ex.as(TOKENS.crm);
      const reads = Array.from({ length: 30 }, (_, i) =>
        crm.get(`/charles${['', '/accounts', '/friends', '/roles'][i % 4]}`),
      );
      const [deleted, ...answers] = await Promise.all([
        ex.as(TOKENS.janitor).delete('/charles'),
        ...reads,
      ]);
      expect(deleted.status).toBe(204);
      for (const answer of answers) expect([200, 404]).toContain(answer.status);
    });
  });

  describe('merges', () => {
    it('moves accounts, friends and roles, records old ids, and redirects the merged id', async () => {
      const identities = t.app.get(IdentityService);
      const crm = ex.as(TOKENS.crm);
      const merged = await identities.mergeIdentities(ex.id, 'mary', 'charles');
      expect(merged).toMatchObject({
        identityId: 'mary',
        displayName: 'Mary Somerville',
        oldIdentityIds: ['charles'],
      });
      const accounts = await crm.get('/mary/accounts').expect(200);
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
      const friends = await crm.get('/mary/friends').expect(200);
      expect(
        friends.body.map((f: { identityId: string }) => f.identityId),
      ).toStrictEqual(['ada', 'olga']);
      const olga = await crm.get('/olga/friends').expect(200);
      expect(
        olga.body.map((f: { identityId: string }) => f.identityId),
      ).toStrictEqual(['mary']);
      const roles = await crm.get('/mary/roles').expect(200);
      expect(roles.body).toStrictEqual([{ name: 'member' }]);
      const moved = await crm.get('/charles').expect(308);
      expect(moved.headers.location).toBe(`${ex.api}/mary`);
      await ex.as(PAT).get('/charles').expect(404);
      await ex.as(TOKENS.charles).get().expect(401);
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
      const clash = await t.newTenant(file);
      const before = await snapshot(t.database);
      const identities = t.app.get(IdentityService);
      await expect(
        identities.mergeIdentities(clash.id, 'ada', 'charles'),
      ).rejects.toThrow(
        'Both identities have an account at "password", which allows one account per identity; remove one of them first.',
      );
      expect(await snapshot(t.database)).toStrictEqual(before);
    });
  });
});
