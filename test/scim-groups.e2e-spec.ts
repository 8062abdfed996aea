import request from 'supertest';
import { bearer } from './support/example';
import { identity, tenantFile, token } from './support/factories';
import { useTestApp } from './support/test-app';
import { TestTenant } from './support/test-tenant';

const SCIM = token({ appId: 'directory', scopes: ['scim:provision'] });
const READER = token({ appId: 'reader', scopes: ['identities:read'] });
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SCIM_JSON = 'application/scim+json; charset=utf-8';
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const WEAK_TAG = /^W\/"[A-Za-z0-9_-]{22}"$/;

const file = tenantFile({
  id: 'groups',
  // 'admin' is a role like any other here; the tenant's admin role is held
  // by nobody in this file.
  adminRoles: ['owner'],
  identities: [
    identity('ada', { displayName: 'Ada Lovelace', roles: ['admin', 'staff'] }),
    identity('bob', { displayName: 'Bob', roles: ['staff'] }),
    identity('carol'),
  ],
  tokens: [SCIM, READER],
});

describe('SCIM Groups', () => {
  const t = useTestApp();
  let tenant: TestTenant;
  let base: string;
  const host = 'http://scim.test';

  const scim = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: object,
    secret = SCIM.token,
  ) => {
    const req = request(t.app.getHttpServer())
      [method](base + path)
      .set(bearer(tenant.token(secret)))
      .set('Host', 'scim.test');
    return body === undefined
      ? req
      : req.set('Content-Type', 'application/scim+json').send(body);
  };
  const roles = async (id: string) =>
    (
      await request(t.app.getHttpServer())
        .get(`${tenant.api}/${id}/roles`)
        .set(bearer(tenant.token(READER.token)))
        .expect(200)
    ).body;
  const identityTag = async (id: string) =>
    (
      await request(t.app.getHttpServer())
        .get(`${tenant.api}/${id}`)
        .set(bearer(tenant.token(READER.token)))
        .expect(200)
    ).headers.etag;
  const events = () =>
    t.database.prisma.identityEvent.findMany({
      where: { tenantId: tenant.id },
      orderBy: { id: 'asc' },
      select: { identityId: true, type: true, fields: true },
    });
  /** The `updated` events after the first `since`, by identity (one write's events have no order of their own). */
  const changes = async (since: number) =>
    (await events())
      .slice(since)
      .filter((e) => e.type === 'updated')
      .sort((a, b) => (a.identityId < b.identityId ? -1 : 1));
  const member = (id: string, display?: string) => ({
    value: id,
    $ref: `${host}${base}/Users/${id}`,
    ...(display && { display }),
    type: 'User',
  });
  /** The whole Group as the service answers it, from its id, name and members. */
  const group = (
    res: request.Response,
    displayName: string,
    members?: object[],
    externalId?: string,
  ) => ({
    schemas: [GROUP],
    id: res.body.id,
    ...(externalId && { externalId }),
    displayName,
    ...(members && { members }),
    meta: {
      resourceType: 'Group',
      created: expect.stringMatching(TIME),
      lastModified: expect.stringMatching(TIME),
      version: expect.stringMatching(WEAK_TAG),
      location: `${host}${base}/Groups/${res.body.id}`,
    },
  });
  const findByName = async (name: string) =>
    (
      await scim(
        'get',
        `/Groups?filter=${encodeURIComponent(`displayName eq "${name}"`)}`,
      ).expect(200)
    ).body.Resources[0];
  const patch = (
    id: string,
    Operations: object[],
    headers: Record<string, string> = {},
  ) =>
    scim('patch', `/Groups/${id}`, { schemas: [PATCH_OP], Operations }).set(
      headers,
    );

  beforeEach(async () => {
    tenant = await t.newTenant(file);
    base = `/${tenant.id}/scim/v2`;
  });

  it('lists the roles as Groups by name, members by id, with paging', async () => {
    const res = await scim('get', '/Groups').expect(200);
    expect(res.headers['content-type']).toBe(SCIM_JSON);
    expect(res.body).toStrictEqual({
      schemas: [LIST],
      totalResults: 2,
      startIndex: 1,
      itemsPerPage: 2,
      Resources: [
        group({ body: res.body.Resources[0] } as request.Response, 'admin', [
          member('ada', 'Ada Lovelace'),
        ]),
        group({ body: res.body.Resources[1] } as request.Response, 'staff', [
          member('ada', 'Ada Lovelace'),
          member('bob', 'Bob'),
        ]),
      ],
    });
    const second = await scim(
      'get',
      '/Groups?startIndex=2&count=1&excludedAttributes=members',
    ).expect(200);
    expect(second.body).toStrictEqual({
      schemas: [LIST],
      totalResults: 2,
      startIndex: 2,
      itemsPerPage: 1,
      Resources: [
        group({ body: res.body.Resources[1] } as request.Response, 'staff'),
      ],
    });
    const none = await scim('get', '/Groups?count=0').expect(200);
    expect(none.body).toStrictEqual({
      schemas: [LIST],
      totalResults: 2,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
    const names = await scim('get', '/Groups?attributes=displayName').expect(
      200,
    );
    expect(
      names.body.Resources.map((g: object) => Object.keys(g)),
    ).toStrictEqual([
      ['schemas', 'id', 'displayName', 'meta'],
      ['schemas', 'id', 'displayName', 'meta'],
    ]);
  });

  it('filters on displayName (any case), id, externalId and members.value', async () => {
    const staff = await findByName('STAFF');
    expect(staff.displayName).toBe('staff');
    const query = async (filter: string) =>
      (
        await scim(
          'get',
          `/Groups?filter=${encodeURIComponent(filter)}`,
        ).expect(200)
      ).body.Resources.map((g: { displayName: string }) => g.displayName);
    expect(await query(`id eq "${staff.id}"`)).toStrictEqual(['staff']);
    expect(await query('members.value eq "bob"')).toStrictEqual(['staff']);
    expect(await query('members[value eq "ada"]')).toStrictEqual([
      'admin',
      'staff',
    ]);
    expect(
      await query('displayName sw "ad" or members.value eq "carol"'),
    ).toStrictEqual(['admin']);
    expect(await query('externalId pr')).toStrictEqual([]);
    expect(await query('displayName co "%"')).toStrictEqual([]);
    const bad = await scim(
      'get',
      `/Groups?filter=${encodeURIComponent('title eq "x"')}`,
    ).expect(400);
    expect(bad.headers['content-type']).toBe(SCIM_JSON);
    expect(bad.body).toStrictEqual({
      schemas: [ERROR],
      status: '400',
      scimType: 'invalidFilter',
      detail: 'The filter is not valid: "title" cannot be filtered on.',
    });
    await scim(
      'get',
      `/Groups?filter=${encodeURIComponent('displayName eq')}`,
    ).expect(400);
  });

  it('creates a Group with members: their roles, versions and events change with it', async () => {
    const before = (await events()).length;
    const bobTag = await identityTag('bob');
    const res = await scim('post', '/Groups', {
      schemas: [GROUP],
      displayName: 'engineers',
      externalId: 'ext-1',
      members: [{ value: 'bob' }, { value: 'carol' }],
    }).expect(201);
    expect(res.headers['content-type']).toBe(SCIM_JSON);
    expect(res.headers.location).toBe(`${host}${base}/Groups/${res.body.id}`);
    expect(res.headers.etag).toBe(res.body.meta.version);
    expect(res.body).toStrictEqual(
      group(res, 'engineers', [member('bob', 'Bob'), member('carol')], 'ext-1'),
    );
    expect(await roles('bob')).toStrictEqual([
      { name: 'engineers' },
      { name: 'staff' },
    ]);
    expect(await roles('carol')).toStrictEqual([{ name: 'engineers' }]);
    expect(await identityTag('bob')).not.toBe(bobTag);
    expect(await changes(before)).toStrictEqual([
      { identityId: 'bob', type: 'updated', fields: ['roles'] },
      { identityId: 'carol', type: 'updated', fields: ['roles'] },
    ]);
    const read = await scim('get', `/Groups/${res.body.id}`).expect(200);
    expect(read.body).toStrictEqual(res.body);
    expect(read.headers.etag).toBe(res.headers.etag);
  });

  it('refuses a taken displayName (409) and unknown members (400), changing nothing', async () => {
    const taken = await scim('post', '/Groups', {
      schemas: [GROUP],
      displayName: 'staff',
    }).expect(409);
    expect(taken.body).toStrictEqual({
      schemas: [ERROR],
      status: '409',
      scimType: 'uniqueness',
      detail: 'A Group named "staff" exists already.',
    });
    const before = (await events()).length;
    const unknown = await scim('post', '/Groups', {
      schemas: [GROUP],
      displayName: 'ghosts',
      members: [{ value: 'bob' }, { value: 'nobody' }],
    }).expect(400);
    expect(unknown.body).toStrictEqual({
      schemas: [ERROR],
      status: '400',
      scimType: 'invalidValue',
      detail: 'No User "nobody" in this tenant; nothing was changed.',
    });
    expect(await findByName('ghosts')).toBeUndefined();
    expect(await roles('bob')).toStrictEqual([{ name: 'staff' }]);
    const staff = await findByName('staff');
    await patch(staff.id, [
      {
        op: 'add',
        path: 'members',
        value: [{ value: 'carol' }, { value: 'nobody' }],
      },
    ]).expect(400);
    await patch(staff.id, [
      { op: 'replace', path: 'displayName', value: 'admin' },
    ]).expect(409);
    // Names compare in any case, as the displayName filter does.
    await scim('post', '/Groups', {
      schemas: [GROUP],
      displayName: 'STAFF',
    }).expect(409);
    await patch(staff.id, [
      { op: 'replace', path: 'displayName', value: 'Admin' },
    ]).expect(409);
    expect(await roles('carol')).toStrictEqual([]);
    expect((await events()).length).toBe(before);
    for (const body of [
      { schemas: [GROUP] },
      { schemas: [GROUP], displayName: 'x', title: 'y' },
      [],
    ])
      expect(
        (await scim('post', '/Groups', body).expect(400)).body.schemas,
      ).toStrictEqual([ERROR]);
  });

  it('adds, removes and replaces members, and renames, with PATCH as Entra ID and Okta send it', async () => {
    const staff = await findByName('staff');
    const before = (await events()).length;
    const res = await patch(staff.id, [
      { op: 'Add', path: 'members', value: [{ value: 'carol' }] },
      { op: 'Remove', path: 'members[value eq "ada"]' },
    ]).expect(204);
    expect(res.headers.etag).toMatch(WEAK_TAG);
    expect(res.headers.etag).not.toBe(staff.meta.version);
    expect(await roles('ada')).toStrictEqual([{ name: 'admin' }]);
    expect(await roles('carol')).toStrictEqual([{ name: 'staff' }]);
    expect(await changes(before)).toHaveLength(2);

    await patch(staff.id, [
      { op: 'replace', path: 'members', value: [{ value: 'ada' }] },
    ]).expect(204);
    expect((await findByName('staff')).members).toStrictEqual([
      member('ada', 'Ada Lovelace'),
    ]);
    await patch(staff.id, [
      { op: 'Remove', path: 'members', value: [{ value: 'ada' }] },
    ]).expect(204);
    expect((await findByName('staff')).members).toStrictEqual([]);
    await patch(staff.id, [
      { op: 'add', value: { members: [{ value: 'bob' }] } },
    ]).expect(204);

    const renamedAt = (await events()).length;
    await patch(staff.id, [
      { op: 'replace', value: { id: staff.id, displayName: 'crew' } },
    ]).expect(204);
    expect(await roles('bob')).toStrictEqual([{ name: 'crew' }]);
    expect(await changes(renamedAt)).toStrictEqual([
      { identityId: 'bob', type: 'updated', fields: ['roles'] },
    ]);
    await patch(staff.id, [
      { op: 'Replace', path: 'displayName', value: 'staff' },
    ]).expect(204);
    const after = await scim('get', `/Groups/${staff.id}`).expect(200);
    expect(after.body).toStrictEqual(
      group(after, 'staff', [member('bob', 'Bob')]),
    );
    expect(after.body.meta.created).toBe(staff.meta.created);

    const quiet = (await events()).length;
    const same = await patch(staff.id, [
      { op: 'add', path: 'members', value: [{ value: 'bob' }] },
    ]).expect(204);
    expect(same.headers.etag).toBe(after.headers.etag);
    expect((await events()).length).toBe(quiet);

    for (const [operations, scimType] of [
      [[{ op: 'move', path: 'members' }], 'invalidSyntax'],
      [[{ op: 'remove' }], 'noTarget'],
      [[{ op: 'add', path: 'owner', value: 'x' }], 'invalidPath'],
      [[{ op: 'remove', path: 'displayName' }], 'mutability'],
      [[{ op: 'replace', value: { id: 'other' } }], 'mutability'],
      [[{ op: 'remove', path: 'members[display eq "Bob"]' }], 'invalidFilter'],
    ] as const) {
      const bad = await patch(staff.id, [...operations]).expect(400);
      expect(bad.body).toMatchObject({
        schemas: [ERROR],
        status: '400',
        scimType,
      });
    }
  });

  it('reads the tenant’s admin roles but does not change who holds them (403)', async () => {
    tenant = await t.newTenant({
      ...file,
      identities: [...file.identities, identity('olga', { roles: ['owner'] })],
    });
    base = `/${tenant.id}/scim/v2`;
    const owner = await findByName('owner');
    const refused = {
      schemas: [ERROR],
      status: '403',
      detail:
        "The Group is one of the tenant's admin roles: who holds it is set by the tenant's configuration (adminRoles), not by provisioning.",
    };
    const before = (await events()).length;
    for (const attempt of [
      scim('post', '/Groups', { schemas: [GROUP], displayName: 'owner' }),
      patch(owner.id, [
        { op: 'add', path: 'members', value: [{ value: 'carol' }] },
      ]),
      patch(owner.id, [
        { op: 'replace', path: 'displayName', value: 'former owner' },
      ]),
      patch((await findByName('staff')).id, [
        { op: 'replace', path: 'displayName', value: 'owner' },
      ]),
      scim('put', `/Groups/${owner.id}`, {
        schemas: [GROUP],
        displayName: 'owner',
        members: [],
      }),
      scim('delete', `/Groups/${owner.id}`),
    ])
      expect((await attempt.expect(403)).body).toStrictEqual(refused);
    expect(await roles('olga')).toStrictEqual([{ name: 'owner' }]);
    expect(await roles('carol')).toStrictEqual([]);
    expect((await events()).length).toBe(before);
  });

  it('replaces a Group with PUT, members set', async () => {
    const admin = await findByName('admin');
    const res = await scim('put', `/Groups/${admin.id}`, {
      schemas: [GROUP],
      id: admin.id,
      displayName: 'admin',
      externalId: 'admins',
      members: [{ value: 'bob' }, { value: 'carol', display: 'ignored' }],
    }).expect(200);
    expect(res.headers.etag).toBe(res.body.meta.version);
    expect(res.body).toStrictEqual(
      group(res, 'admin', [member('bob', 'Bob'), member('carol')], 'admins'),
    );
    expect(await roles('ada')).toStrictEqual([{ name: 'staff' }]);
    expect(await roles('carol')).toStrictEqual([{ name: 'admin' }]);
    await scim('put', '/Groups/nothing', {
      schemas: [GROUP],
      displayName: 'x',
    }).expect(404);
  });

  it('honours If-Match on PUT, PATCH and DELETE', async () => {
    const staff = await scim(
      'get',
      `/Groups/${(await findByName('staff')).id}`,
    ).expect(200);
    const tag = staff.headers.etag;
    const moved = await patch(
      staff.body.id,
      [{ op: 'add', path: 'members', value: [{ value: 'carol' }] }],
      { 'If-Match': tag },
    ).expect(204);
    const stale = await patch(
      staff.body.id,
      [{ op: 'remove', path: 'members' }],
      { 'If-Match': tag },
    ).expect(412);
    expect(stale.body).toStrictEqual({
      schemas: [ERROR],
      status: '412',
      detail:
        'If-Match does not match the current version of the Group; fetch it again and retry.',
    });
    await scim('put', `/Groups/${staff.body.id}`, {
      schemas: [GROUP],
      displayName: 'staff',
    })
      .set('If-Match', tag)
      .expect(412);
    await scim('delete', `/Groups/${staff.body.id}`)
      .set('If-Match', tag)
      .expect(412);
    expect(await roles('carol')).toStrictEqual([{ name: 'staff' }]);
    await patch(
      staff.body.id,
      [{ op: 'remove', path: 'members[value eq "carol"]' }],
      { 'If-Match': moved.headers.etag.slice(2) },
    ).expect(204);
    await patch(
      staff.body.id,
      [{ op: 'replace', path: 'externalId', value: 'e' }],
      { 'If-Match': '*' },
    ).expect(204);
  });

  it('deletes a Group: its holders lose the role, each with an event', async () => {
    const staff = await findByName('staff');
    const before = (await events()).length;
    const res = await scim('delete', `/Groups/${staff.id}`).expect(204);
    expect(res.text).toBe('');
    expect(await roles('ada')).toStrictEqual([{ name: 'admin' }]);
    expect(await roles('bob')).toStrictEqual([]);
    expect(await changes(before)).toStrictEqual([
      { identityId: 'ada', type: 'updated', fields: ['roles'] },
      { identityId: 'bob', type: 'updated', fields: ['roles'] },
    ]);
    const gone = await scim('get', `/Groups/${staff.id}`).expect(404);
    expect(gone.body).toStrictEqual({
      schemas: [ERROR],
      status: '404',
      detail: `No Group "${staff.id}" in this tenant.`,
    });
    await scim('delete', `/Groups/${staff.id}`).expect(404);
  });

  it('answers only app tokens with scim:provision, in SCIM errors', async () => {
    const res = await scim('get', '/Groups', undefined, READER.token).expect(
      403,
    );
    expect(res.headers['content-type']).toBe(SCIM_JSON);
    expect(res.body).toMatchObject({ schemas: [ERROR], status: '403' });
    const none = await request(t.app.getHttpServer())
      .get(`${base}/Groups`)
      .expect(401);
    expect(none.body).toMatchObject({ schemas: [ERROR], status: '401' });
  });
});
