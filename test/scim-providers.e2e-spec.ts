import request from 'supertest';
import { bearer } from './support/example';
import { tenantFile, token } from './support/factories';
import { SCIM_HOST } from './support/scim-tenant';
import { useTestApp } from './support/test-app';
import { TestTenant } from './support/test-tenant';

// The request sequences Microsoft Entra ID and Okta send to a SCIM service
// provider, with the bodies their public documentation shows ("Tutorial:
// Develop and plan provisioning for a SCIM endpoint in Microsoft Entra ID",
// its "Known issues … SCIM 2.0 protocol compliance" page, and Okta's "SCIM
// 2.0 reference"), then a round trip: what they provisioned, read back
// through the identity API and the tenant export.

const SCIM = token({ appId: 'directory', scopes: ['scim:provision'] });
const READER = token({ appId: 'reader', scopes: ['identities:read'] });
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

const file = tenantFile({
  id: 'providers',
  identities: [{ identityId: 'resident', displayName: 'Resident' }],
  tokens: [SCIM, READER],
});

describe('identity-provider request sequences', () => {
  const t = useTestApp();
  let tenant: TestTenant;
  let base: string;

  const scim = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: object,
  ) => {
    // A fixed Host: each supertest request comes from a port of its own,
    // and the locations the service writes follow the Host.
    const req = request(t.app.getHttpServer())
      [method](base + path)
      .set('Host', SCIM_HOST)
      .set(bearer(tenant.token(SCIM.token)));
    return body === undefined
      ? req
      : req.set('Content-Type', 'application/scim+json').send(body);
  };
  const identity = (id: string, path = '') =>
    request(t.app.getHttpServer())
      .get(`${tenant.api}/${encodeURIComponent(id)}${path}`)
      .set(bearer(tenant.token(READER.token)));
  const userNamed = async (userName: string) => {
    const res = await scim(
      'get',
      `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`,
    ).expect(200);
    return res.body as { totalResults: number; Resources: { id: string }[] };
  };

  beforeEach(async () => {
    tenant = await t.newTenant(file);
    base = `/${tenant.id}/scim/v2`;
  });

  describe('Microsoft Entra ID', () => {
    it('looks a user up, creates it, reads it, updates it, disables it and deletes it', async () => {
      const userName = 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1';
      // Lookup before create: an empty list, never a 404.
      const none = await scim(
        'get',
        `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`,
      ).expect(200);
      expect(none.headers['content-type']).toBe(
        'application/scim+json; charset=utf-8',
      );
      expect(none.body).toMatchObject({
        schemas: [LIST],
        totalResults: 0,
        Resources: [],
      });

      const created = await scim('post', '/Users', {
        schemas: [USER, ENTERPRISE],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName,
        active: true,
        emails: [
          {
            primary: true,
            type: 'work',
            value:
              'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com',
          },
        ],
        meta: { resourceType: 'User' },
        name: {
          formatted: 'givenName familyName',
          familyName: 'familyName',
          givenName: 'givenName',
        },
        roles: [],
      }).expect(201);
      const id: string = created.body.id;
      expect(created.headers.location).toBe(`${created.body.meta.location}`);
      expect(created.body).toMatchObject({
        userName,
        active: true,
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      });

      await scim('get', `/Users/${id}`).expect(200);
      expect(await userNamed(userName)).toMatchObject({
        totalResults: 1,
        Resources: [{ id }],
      });
      // A second create of the same userName is a conflict.
      const again = await scim('post', '/Users', {
        schemas: [USER],
        userName,
      }).expect(409);
      expect(again.body).toMatchObject({
        scimType: 'uniqueness',
        status: '409',
      });

      // Multi-valued and single-valued attributes, each by path.
      const patched = await scim('patch', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'Replace',
            path: 'emails[type eq "work"].value',
            value: 'updatedEmail@microsoft.com',
          },
          {
            op: 'Replace',
            path: 'name.familyName',
            value: 'updatedFamilyName',
          },
        ],
      });
      expect([200, 204]).toContain(patched.status);
      await scim('patch', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'Replace',
            path: 'userName',
            value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com',
          },
        ],
      }).expect((res) => expect([200, 204]).toContain(res.status));
      let read = await identity(id).expect(200);
      expect(read.body).toMatchObject({
        userName: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com',
        surname: 'updatedFamilyName',
        givenName: 'givenName',
        emailAddress: 'updatedEmail@microsoft.com',
        disabled: false,
      });

      // Several attributes at once: a replace without a path, dotted keys.
      await scim('patch', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'replace',
            value: {
              displayName: 'Pvlo Gtfd',
              'emails[type eq "work"].value': 'TestBcwqnm@test.microsoft.com',
              'name.givenName': 'Gtfd',
              'name.familyName': 'Pkqf',
              externalId: 'Eqpj',
              [`${ENTERPRISE}:employeeNumber`]: 'Eqpj',
            },
          },
        ],
      }).expect((res) => expect([200, 204]).toContain(res.status));
      read = await identity(id).expect(200);
      expect(read.body).toMatchObject({
        displayName: 'Pvlo Gtfd',
        givenName: 'Gtfd',
        surname: 'Pkqf',
        emailAddress: 'TestBcwqnm@test.microsoft.com',
      });

      // Disable: the boolean, and the string "False" older jobs send.
      await scim('patch', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Replace', path: 'active', value: false }],
      }).expect((res) => expect([200, 204]).toContain(res.status));
      expect((await identity(id).expect(200)).body.disabled).toBe(true);
      await scim('patch', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
      }).expect((res) => expect([200, 204]).toContain(res.status));
      expect((await identity(id).expect(200)).body.disabled).toBe(false);
      await scim('patch', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      }).expect((res) => expect([200, 204]).toContain(res.status));
      expect((await identity(id).expect(200)).body.disabled).toBe(true);
      // A disabled user is still found by its lookup, with active false.
      const found = await userNamed(
        '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com',
      );
      expect(found).toMatchObject({
        totalResults: 1,
        Resources: [{ id, active: false }],
      });

      await scim('delete', `/Users/${id}`).expect(204);
      await scim('get', `/Users/${id}`).expect(404);
      await identity(id).expect(404);
    });

    it('accepts a user with the attributes of its default mappings, the enterprise extension included', async () => {
      const res = await scim('post', '/Users', {
        schemas: [USER, ENTERPRISE],
        externalId: 'ellen',
        userName: 'ellen@contoso.example',
        active: true,
        displayName: 'Ellen Reckert',
        title: 'Recruiter',
        preferredLanguage: 'en-US',
        emails: [
          { primary: true, type: 'work', value: 'ellen@contoso.example' },
        ],
        name: {
          formatted: 'Ellen Reckert',
          familyName: 'Reckert',
          givenName: 'Ellen',
        },
        phoneNumbers: [
          { type: 'work', value: '+1 425 555 0100' },
          { type: 'mobile', value: '+1 425 555 0101' },
        ],
        addresses: [
          {
            type: 'work',
            streetAddress: '1 Main St',
            locality: 'Redmond',
            region: 'WA',
            postalCode: '98052',
            country: 'US',
            primary: true,
          },
        ],
        [ENTERPRISE]: {
          employeeNumber: '100009',
          department: 'Human Resources US',
          manager: { value: 'resident' },
        },
        meta: { resourceType: 'User' },
        roles: [],
      }).expect(201);
      const read = await identity(res.body.id).expect(200);
      expect(read.body).toMatchObject({
        identityId: res.body.id,
        userName: 'ellen@contoso.example',
        displayName: 'Ellen Reckert',
        givenName: 'Ellen',
        surname: 'Reckert',
        emailAddress: 'ellen@contoso.example',
        disabled: false,
      });
    });

    it('creates a group, finds it without members, renames it, adds and removes members, and deletes it', async () => {
      const ada = await scim('post', '/Users', {
        schemas: [USER],
        userName: 'ada@contoso.example',
        active: true,
      }).expect(201);
      const adaId: string = ada.body.id;
      const created = await scim('post', '/Groups', {
        schemas: [
          GROUP,
          'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/Group',
        ],
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'displayName',
        meta: { resourceType: 'Group' },
      }).expect(201);
      const id: string = created.body.id;
      expect(created.body).toMatchObject({
        displayName: 'displayName',
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        members: [],
      });

      const byId = await scim(
        'get',
        `/Groups/${id}?excludedAttributes=members`,
      ).expect(200);
      expect(byId.body).not.toHaveProperty('members');
      const byName = await scim(
        'get',
        `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`,
      ).expect(200);
      expect(byName.body).toMatchObject({
        schemas: [LIST],
        totalResults: 1,
        Resources: [{ id, displayName: 'displayName' }],
      });
      expect(byName.body.Resources[0]).not.toHaveProperty('members');

      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'Replace',
            path: 'displayName',
            value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName',
          },
        ],
      }).expect(204);
      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'Add', path: 'members', value: [{ $ref: null, value: adaId }] },
        ],
      }).expect(204);
      expect((await identity(adaId, '/roles').expect(200)).body).toStrictEqual([
        { name: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' },
      ]);
      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'Remove',
            path: 'members',
            value: [{ $ref: null, value: adaId }],
          },
        ],
      }).expect(204);
      expect((await identity(adaId, '/roles').expect(200)).body).toStrictEqual(
        [],
      );
      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'Add', path: 'members', value: [{ $ref: null, value: adaId }] },
        ],
      }).expect(204);
      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Remove', path: `members[value eq "${adaId}"]` }],
      }).expect(204);
      expect((await identity(adaId, '/roles').expect(200)).body).toStrictEqual(
        [],
      );

      await scim('delete', `/Groups/${id}`).expect(204);
      await scim('get', `/Groups/${id}`).expect(404);
    });
  });

  describe('Okta', () => {
    it('checks for the user, creates it, reads it, replaces it and deactivates it', async () => {
      const userName = 'test.user@okta.local';
      const lookup = await scim(
        'get',
        `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`,
      ).expect(200);
      expect(lookup.body).toMatchObject({
        schemas: [LIST],
        totalResults: 0,
        startIndex: 1,
        Resources: [],
      });

      const created = await scim('post', '/Users', {
        schemas: [USER],
        userName,
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: userName, type: 'work' }],
        displayName: 'Test User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      }).expect(201);
      const id: string = created.body.id;
      expect(JSON.stringify(created.body)).not.toContain('1mz050nq');
      const read = await scim('get', `/Users/${id}`).expect(200);
      expect(read.body).toMatchObject({
        id,
        userName,
        active: true,
        name: { givenName: 'Test', familyName: 'User' },
      });

      // A profile update: the whole user as Okta holds it.
      const replaced = await scim('put', `/Users/${id}`, {
        schemas: [USER],
        id,
        userName,
        name: { givenName: 'Another', middleName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: userName, type: 'work' }],
        displayName: 'Another User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        active: true,
        meta: { resourceType: 'User' },
      }).expect(200);
      expect(replaced.body).toMatchObject({
        id,
        name: { givenName: 'Another', familyName: 'User' },
        displayName: 'Another User',
      });
      expect((await identity(id).expect(200)).body).toMatchObject({
        givenName: 'Another',
        displayName: 'Another User',
        disabled: false,
      });

      await scim('patch', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { active: false } }],
      }).expect((res) => expect([200, 204]).toContain(res.status));
      expect((await identity(id).expect(200)).body.disabled).toBe(true);
      // Reactivation is the same request with true.
      await scim('patch', `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { active: true } }],
      }).expect((res) => expect([200, 204]).toContain(res.status));
      expect((await identity(id).expect(200)).body.disabled).toBe(false);
    });

    it('pushes a group: creates it, renames it, changes its members, replaces it and deletes it', async () => {
      const [first, second] = await Promise.all(
        ['first@okta.local', 'second@okta.local'].map(
          async (userName) =>
            (
              await scim('post', '/Users', {
                schemas: [USER],
                userName,
                active: true,
              }).expect(201)
            ).body.id as string,
        ),
      );
      const listed = await scim('get', '/Groups?startIndex=1&count=100').expect(
        200,
      );
      expect(listed.body).toMatchObject({
        schemas: [LIST],
        totalResults: 0,
        startIndex: 1,
        Resources: [],
      });

      const created = await scim('post', '/Groups', {
        schemas: [GROUP],
        displayName: 'Test SCIMv2',
        members: [],
      }).expect(201);
      const id: string = created.body.id;

      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'replace', value: { id, displayName: 'Test SCIMv2 renamed' } },
        ],
      }).expect(204);
      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'add',
            path: 'members',
            value: [{ value: first, display: 'first@okta.local' }],
          },
        ],
      }).expect(204);
      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'remove', path: `members[value eq "${first}"]` },
          {
            op: 'add',
            path: 'members',
            value: [{ value: second, display: 'second@okta.local' }],
          },
        ],
      }).expect(204);
      expect((await identity(first, '/roles').expect(200)).body).toStrictEqual(
        [],
      );
      expect((await identity(second, '/roles').expect(200)).body).toStrictEqual(
        [{ name: 'Test SCIMv2 renamed' }],
      );
      await scim('patch', `/Groups/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'replace',
            path: 'members',
            value: [{ value: first, display: 'first@okta.local' }],
          },
        ],
      }).expect(204);

      const put = await scim('put', `/Groups/${id}`, {
        schemas: [GROUP],
        id,
        displayName: 'Test SCIMv2',
        members: [
          { value: first, display: 'first@okta.local' },
          { value: second, display: 'second@okta.local' },
        ],
      }).expect(200);
      expect(
        put.body.members.map((m: { value: string }) => m.value).sort(),
      ).toStrictEqual([first, second].sort());
      expect((await identity(first, '/roles').expect(200)).body).toStrictEqual([
        { name: 'Test SCIMv2' },
      ]);

      await scim('delete', `/Groups/${id}`).expect(204);
      expect((await identity(second, '/roles').expect(200)).body).toStrictEqual(
        [],
      );
    });
  });

  it('round trip: what a directory provisioned reads back through the identity API and the export', async () => {
    const user = await scim('post', '/Users', {
      schemas: [USER, ENTERPRISE],
      userName: 'grace@navy.example',
      externalId: 'grace-1906',
      displayName: 'Grace Hopper',
      name: { givenName: 'Grace', familyName: 'Hopper' },
      emails: [{ primary: true, type: 'work', value: 'grace@navy.example' }],
      active: true,
      [ENTERPRISE]: { department: 'Navy' },
    }).expect(201);
    const id: string = user.body.id;
    const group = await scim('post', '/Groups', {
      schemas: [GROUP],
      displayName: 'engineers',
      members: [{ value: id }, { value: 'resident' }],
    }).expect(201);
    const members = Object.fromEntries(
      group.body.members.map((m: { value: string }) => [m.value, m]),
    );
    expect(members).toStrictEqual({
      [id]: {
        value: id,
        $ref: user.body.meta.location,
        display: 'Grace Hopper',
        type: 'User',
      },
      resident: {
        value: 'resident',
        $ref: user.body.meta.location.replace(/[^/]+$/, 'resident'),
        display: 'Resident',
        type: 'User',
      },
    });

    const read = await identity(id).expect(200);
    expect(read.body).toMatchObject({
      identityId: id,
      userName: 'grace@navy.example',
      displayName: 'Grace Hopper',
      givenName: 'Grace',
      givenNames: ['Grace'],
      surname: 'Hopper',
      surnames: ['Hopper'],
      emailAddress: 'grace@navy.example',
      emailAddresses: ['grace@navy.example'],
      disabled: false,
    });
    expect((await identity(id, '/roles').expect(200)).body).toStrictEqual([
      { name: 'engineers' },
    ]);
    expect(
      (await identity('resident', '/roles').expect(200)).body,
    ).toStrictEqual([{ name: 'engineers' }]);

    const exported = (await t.tenants.exportTenant(tenant.id)) as {
      tenant: object;
      identities: Record<string, unknown>[];
    };
    expect(exported.identities.find((i) => i.identityId === id)).toMatchObject({
      identityId: id,
      userName: 'grace@navy.example',
      displayName: 'Grace Hopper',
      givenName: 'Grace',
      surname: 'Hopper',
      emailAddress: 'grace@navy.example',
      roles: ['engineers'],
    });
    expect(
      exported.identities.find((i) => i.identityId === 'resident'),
    ).toMatchObject({ roles: ['engineers'] });
    // The export imports again as it is, and reads back the same.
    const copy = await t.newTenant({ ...exported, tokens: file.tokens });
    expect(await t.tenants.exportTenant(copy.id)).toStrictEqual({
      ...exported,
      tenant: { ...exported.tenant, id: copy.id },
    });
  });
});
