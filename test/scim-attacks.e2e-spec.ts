import { useTestApp } from './support/test-app';
import { ScimUsersRepository } from '../src/scim/scim-users.repository';
import { SCIM_JSON, SCIM_TENANT, useScimClient } from './support/scim-tenant';

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const EXTENSION = 'urn:ietf:params:scim:schemas:extension:identity:2.0:User';

const patchOf = (...Operations: object[]) => ({
  schemas: [PATCH_OP],
  Operations,
});

// What a hostile directory sends: nothing of it may reach an object's
// prototype, and the process and every other tenant carry on.
describe('SCIM PATCH against prototype pollution', () => {
  const t = useTestApp();
  const scim = useScimClient(t);

  it('answers every path through a prototype 400 invalidPath and changes nothing', async () => {
    const before = await scim.send('get', '/Users/ada').expect(200);
    const cases: [object, string, string?][] = [
      [
        { op: 'add', path: '__proto__.x', value: 'x' },
        'The path "__proto__.x" names no attribute of User.',
      ],
      [
        { op: 'add', path: 'constructor.prototype.x', value: 'x' },
        'The path "constructor.prototype.x" names no attribute of User.',
      ],
      [
        { op: 'add', path: '__proto__.status', value: 'x' },
        'The path "__proto__.status" names no attribute of User.',
      ],
      [
        { op: 'add', value: { '__proto__.x': 'x' } },
        'The path "__proto__.x" names no attribute of User.',
      ],
      [
        { op: 'add', path: 'name.__proto__.x', value: 'x' },
        'The path "name.__proto__.x" names no sub-attribute of name.',
      ],
      [
        { op: 'add', path: `${EXTENSION}:__proto__.x`, value: 'x' },
        `The path "${EXTENSION}:__proto__.x" names no attribute of Identity.`,
      ],
      [
        { op: 'replace', value: { name: { __proto__x: 1, ['__proto__']: 1 } } },
        'Operations[0].value has a key named "__proto__".',
        'invalidValue',
      ],
      [
        { op: 'replace', value: { [EXTENSION]: { ['constructor']: 1 } } },
        'Operations[0].value has a key named "constructor".',
        'invalidValue',
      ],
    ];
    for (const [operation, detail, scimType = 'invalidPath'] of cases) {
      const r = await scim
        .write('patch', '/Users/ada', patchOf(operation))
        .expect(400);
      expect(r.headers['content-type']).toBe(SCIM_JSON);
      expect([operation, r.body]).toStrictEqual([
        operation,
        { schemas: [ERROR], status: '400', scimType, detail },
      ]);
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).status).toBeUndefined();
    const after = await scim.send('get', '/Users/ada').expect(200);
    expect(after.body).toStrictEqual(before.body);
    const ready = await t.http().get('/health/ready').expect(200);
    expect(ready.body).toStrictEqual(expect.objectContaining({ status: 'ok' }));
  });

  it('refuses a value that carries a prototype’s name as a key (400 invalidValue)', async () => {
    for (const body of [
      '{"op":"add","path":"name","value":{"__proto__":{"x":1}}}',
      '{"op":"add","path":"emails","value":[{"value":"a@b.org","constructor":{"prototype":{"x":1}}}]}',
    ]) {
      const r = await scim
        .send('patch', '/Users/ada')
        .set('Content-Type', 'application/scim+json')
        .send(`{"schemas":["${PATCH_OP}"],"Operations":[${body}]}`)
        .expect(400);
      expect(r.body).toStrictEqual({
        schemas: [ERROR],
        status: '400',
        scimType: 'invalidValue',
        detail: `Operations[0].value has a key named "${body.includes('__proto__') ? '__proto__' : 'constructor'}".`,
      });
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses attributes the schema does not name, in any position', async () => {
    for (const path of [
      'nickName',
      'emails[type eq "work"].nothing',
      'emails[nothing eq "work"].value',
      'userName[type eq "x"]',
      'urn:example:other:1.0:User:x',
      'name.givenName.x',
      'name..givenName',
      'a.a.a',
    ]) {
      const r = await scim
        .write('patch', '/Users/ada', patchOf({ op: 'add', path, value: 'x' }))
        .expect(400);
      expect([path, r.body.scimType]).toStrictEqual([path, 'invalidPath']);
    }
  });

  it('still applies the paths directories send', async () => {
    const r = await scim
      .write(
        'patch',
        '/Users/ada',
        patchOf(
          { op: 'Replace', path: 'name.givenName', value: 'Augusta' },
          {
            op: 'add',
            path: 'emails[type eq "work"].value',
            value: 'ada@example.org',
          },
          { op: 'replace', path: `${EXTENSION}:surnames`, value: ['King'] },
          { op: 'replace', value: { 'NAME.familyName': 'King', active: true } },
        ),
      )
      .expect(200);
    expect(r.body.name).toStrictEqual({
      formatted: 'Augusta King',
      givenName: 'Augusta',
      familyName: 'King',
    });
    // The value the filter matched nothing for is added as it was described.
    expect(r.body.emails).toStrictEqual([
      { value: 'ada@example.org', type: 'work' },
    ]);
  });
});

// One filter compiler for Users and Groups, bounded in size.
describe('SCIM filters', () => {
  const t = useTestApp();
  const scim = useScimClient(t);
  beforeAll(async () => {
    await scim
      .write('post', '/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'staff',
      })
      .expect(201);
  });

  const list = (resource: string, filter: string) =>
    scim.send('get', `/${resource}?filter=${encodeURIComponent(filter)}`);
  const invalidFilter = (detail: string) => ({
    schemas: [ERROR],
    status: '400',
    scimType: 'invalidFilter',
    detail: `The filter is not valid: ${detail}`,
  });

  it('means the same by not on Users and Groups: an absent value is not equal', async () => {
    const users = await list('Users', 'not (externalId eq "x")').expect(200);
    expect(users.body.Resources.map((u: { id: string }) => u.id)).toStrictEqual(
      ['ada'],
    );
    const groups = await list('Groups', 'not (externalId eq "x")').expect(200);
    expect(
      groups.body.Resources.map((g: { displayName: string }) => g.displayName),
    ).toStrictEqual(['staff']);
    const none = await list('Groups', 'externalId ne "x"').expect(200);
    expect(none.body.totalResults).toBe(1);
  });

  it('refuses a filter over its limits, naming the limit, on Users and Groups', async () => {
    const terms = (n: number, term: string) =>
      Array.from({ length: n }, () => term).join(' and ');
    for (const resource of ['Users', 'Groups']) {
      const attribute = resource === 'Users' ? 'userName' : 'displayName';
      const many = await list(
        resource,
        terms(60, `${attribute} co "e"`),
      ).expect(400);
      expect(many.headers['content-type']).toBe(SCIM_JSON);
      expect(many.body).toStrictEqual(
        invalidFilter('it has more than 20 comparisons.'),
      );
      await list(resource, terms(20, `${attribute} co "e"`)).expect(200);
      const long = await list(
        resource,
        `${attribute} eq "${'x'.repeat(3000)}"`,
      ).expect(400);
      expect(long.body).toStrictEqual(
        invalidFilter('it is longer than 2048 characters.'),
      );
      const deep = await list(
        resource,
        `${'not ('.repeat(9)}${attribute} pr${')'.repeat(9)}`,
      ).expect(400);
      expect(deep.body).toStrictEqual(
        invalidFilter('it nests deeper than 8 levels.'),
      );
    }
  });

  it('quotes no more than the start of a filter it cannot parse', async () => {
    const filter = `userName eq "x" and ${'('.repeat(1500)}`;
    const r = await list('Users', filter).expect(400);
    expect(r.body).toStrictEqual(
      invalidFilter(`cannot parse "${filter.slice(0, 100)}…".`),
    );
  });
});

// Writes a directory must always be able to make, and the ones it never may.
describe('SCIM User writes', () => {
  const t = useTestApp();
  const scim = useScimClient(t, {
    ...SCIM_TENANT,
    tenant: { ...SCIM_TENANT.tenant, adminRoles: ['admin'] },
    identities: [
      { ...SCIM_TENANT.identities[0], roles: ['admin'] },
      { identityId: 'long', userName: 'long', displayName: 'x'.repeat(600) },
    ],
  });

  it('deactivates a User whose other values an import allowed beyond SCIM’s limits', async () => {
    const r = await scim
      .write(
        'patch',
        '/Users/long',
        patchOf({ op: 'replace', path: 'active', value: false }),
      )
      .expect(200);
    expect([r.body.active, r.body.displayName]).toStrictEqual([
      false,
      'x'.repeat(600),
    ]);
    // A changed value is still held to the limit.
    const bad = await scim
      .write(
        'patch',
        '/Users/long',
        patchOf({ op: 'replace', path: 'displayName', value: 'y'.repeat(600) }),
      )
      .expect(400);
    expect(bad.body.detail).toBe('displayName must be at most 512 characters');
  });

  it('neither deactivates nor deletes a holder of an admin role (403), and changes nothing', async () => {
    const before = await scim.send('get', '/Users/ada').expect(200);
    const detail = (what: string) =>
      `The User holds one of the tenant's admin roles: it is not ${what} by provisioning; the tenant's configuration (adminRoles) decides who holds them.`;
    const forbidden = (what: string) => ({
      schemas: [ERROR],
      status: '403',
      detail: detail(what),
    });
    const patched = await scim
      .write(
        'patch',
        '/Users/ada',
        patchOf({ op: 'replace', path: 'active', value: 'False' }),
      )
      .expect(403);
    expect(patched.headers['content-type']).toBe(SCIM_JSON);
    expect(patched.body).toStrictEqual(forbidden('deactivated'));
    const put = await scim
      .write('put', '/Users/ada', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'ada.lovelace',
        active: false,
      })
      .expect(403);
    expect(put.body).toStrictEqual(forbidden('deactivated'));
    const deleted = await scim.send('delete', '/Users/ada').expect(403);
    expect(deleted.body).toStrictEqual(forbidden('deleted'));
    const after = await scim.send('get', '/Users/ada').expect(200);
    expect(after.body).toStrictEqual(before.body);
    // Other changes to the admin are provisioning as usual.
    await scim
      .write(
        'patch',
        '/Users/ada',
        patchOf({ op: 'replace', path: 'displayName', value: 'Ada L.' }),
      )
      .expect(200);
  });

  it('answers a change of meta 400 mutability, with or without a path', async () => {
    for (const operation of [
      { op: 'replace', path: 'meta.created', value: '2020-01-01T00:00:00Z' },
      { op: 'replace', value: { meta: { created: '2020-01-01T00:00:00Z' } } },
    ]) {
      const r = await scim
        .write('patch', '/Users/long', patchOf(operation))
        .expect(400);
      expect([operation, r.body]).toStrictEqual([
        operation,
        {
          schemas: [ERROR],
          status: '400',
          scimType: 'mutability',
          detail: `${operation.path ?? 'meta.created'} is read-only.`,
        },
      ]);
    }
  });

  it('answers a PATCH that committed with the User it wrote, even when a DELETE follows at once', async () => {
    await scim
      .write('post', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'brief',
      })
      .expect(201);
    const { body } = await scim
      .send('get', '/Users?filter=userName%20eq%20%22brief%22')
      .expect(200);
    const id = body.Resources[0].id as string;
    // The DELETE lands between the PATCH's commit and its answer.
    const repository = t.app.get(ScimUsersRepository);
    const findUser = repository.findUser.bind(repository);
    let reads = 0;
    const spy = jest
      .spyOn(repository, 'findUser')
      .mockImplementation(async (tenantId, identityId) => {
        if (identityId === id && ++reads === 2)
          await scim.send('delete', `/Users/${id}`).expect(204);
        return findUser(tenantId, identityId);
      });
    try {
      const r = await scim
        .write(
          'patch',
          `/Users/${id}`,
          patchOf({ op: 'replace', path: 'displayName', value: 'Brief' }),
        )
        .expect(200);
      expect([r.body.id, r.body.displayName]).toStrictEqual([id, 'Brief']);
    } finally {
      spy.mockRestore();
    }
    await scim.send('get', `/Users/${id}`).expect(404);
  });
});

// RFC 7644 §3.5.2 as the conformance testers read it.
describe('SCIM PATCH of the extension', () => {
  const t = useTestApp();
  const scim = useScimClient(t);

  const extensionOf = async () =>
    (await scim.send('get', '/Users/ada').expect(200)).body[EXTENSION];

  it('applies a value object whose path is the extension, or whose key is, and replaces every value of a multi-valued attribute', async () => {
    await scim
      .write(
        'patch',
        '/Users/ada',
        patchOf({
          op: 'replace',
          path: EXTENSION,
          value: { givenNames: ['Ann', 'Beth'], surnames: ['King'] },
        }),
      )
      .expect(200);
    expect(await extensionOf()).toMatchObject({
      givenNames: ['Ann', 'Beth'],
      surnames: ['King'],
    });
    await scim
      .write(
        'patch',
        '/Users/ada',
        patchOf({
          op: 'replace',
          value: { [EXTENSION]: { givenNames: ['Beth'] } },
        }),
      )
      .expect(200);
    expect((await extensionOf()).givenNames).toStrictEqual(['Beth']);
    await scim
      .write(
        'patch',
        '/Users/ada',
        patchOf({
          op: 'replace',
          path: `${EXTENSION}:surnames`,
          value: ['Lovelace'],
        }),
      )
      .expect(200);
    expect((await extensionOf()).surnames).toStrictEqual(['Lovelace']);
  });
});

// Every SCIM body is decided at a cost proportional to its size.
describe('SCIM bodies at their bounds', () => {
  const t = useTestApp();
  const scim = useScimClient(t);

  const refused = (scimType: string, detail: string) => ({
    schemas: [ERROR],
    status: '400',
    scimType,
    detail,
  });

  it('refuses bodies shaped to cost the patch library quadratic time, before applying them', async () => {
    const cases: [object, object][] = [
      [
        patchOf({ op: 'add', path: 'a.'.repeat(200_000), value: 'x' }),
        refused('invalidPath', 'The path is longer than 1024 characters.'),
      ],
      [
        patchOf(
          ...Array.from({ length: 14_000 }, (_, i) => ({
            op: 'add',
            path: 'displayName',
            value: `x${i}`,
          })),
        ),
        refused('invalidSyntax', 'Operations may hold at most 500 operations.'),
      ],
      [
        patchOf(
          ...Array.from({ length: 50 }, (_, i) => ({
            op: 'add',
            path: 'emails',
            value: Array.from({ length: 20 }, (_, j) => ({
              value: `e${i}-${j}@example.org`,
            })),
          })),
        ),
        refused(
          'invalidValue',
          'The operations hold more than 500 values together.',
        ),
      ],
      [
        patchOf({
          op: 'add',
          path: `${EXTENSION}:givenNames`,
          value: Array.from({ length: 101 }, (_, i) => `n${i}`),
        }),
        refused(
          'invalidValue',
          'Operations[0].value holds more than 100 values in one array or object.',
        ),
      ],
    ];
    for (const [body, answer] of cases) {
      const r = await scim.write('patch', '/Users/ada', body).expect(400);
      expect(r.body).toStrictEqual(answer);
    }
    const post = await scim
      .write('post', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'many',
        [EXTENSION]: {
          properties: Array.from({ length: 19_000 }, (_, i) => ({
            name: `p${i}`,
            value: 'v',
          })),
        },
      })
      .expect(400);
    expect(post.body).toStrictEqual(
      refused('invalidValue', 'properties must have at most 100 items.'),
    );
    expect(
      await t.database.prisma.identity.count({
        where: { tenantId: scim.tenant.id },
      }),
    ).toBe(1);
  });
});

// RFC 7644 §3.14: a client sends back the version it read, weak or strong.
describe('SCIM If-Match', () => {
  const t = useTestApp();
  const scim = useScimClient(t);

  it('compares a User’s tag as a Group’s: with or without W/', async () => {
    const read = await scim.send('get', '/Users/ada').expect(200);
    const weak = `W/${read.headers.etag as string}`;
    const patched = await scim
      .write(
        'patch',
        '/Users/ada',
        patchOf({ op: 'replace', path: 'displayName', value: 'Ada L.' }),
      )
      .set('If-Match', weak)
      .expect(200);
    // The old tag, weak, is stale now.
    await scim
      .write('put', '/Users/ada', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'ada.lovelace',
      })
      .set('If-Match', weak)
      .expect(412);
    await scim.send('delete', '/Users/ada').set('If-Match', weak).expect(412);
    await scim
      .send('delete', '/Users/ada')
      .set('If-Match', `W/${patched.headers.etag as string}`)
      .expect(204);
  });
});
