import { useTestApp } from './support/test-app';
import {
  ACCESS_TOKEN,
  READ_TOKEN,
  SCIM_HOST,
  SCIM_JSON,
  useScimClient,
} from './support/scim-tenant';

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const EXTENSION = 'urn:ietf:params:scim:schemas:extension:identity:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const CHARACTERISTICS = [
  'caseExact',
  'description',
  'multiValued',
  'mutability',
  'name',
  'required',
  'returned',
  'type',
  'uniqueness',
];

/** Every attribute and sub-attribute of a schema, with its path. */
const attributesOf = (attributes: any[], parent = ''): [string, any][] =>
  attributes.flatMap((a) => [
    [parent + a.name, a] as [string, any],
    ...attributesOf(a.subAttributes ?? [], `${parent}${a.name}.`),
  ]);

describe('SCIM discovery', () => {
  const t = useTestApp();
  const scim = useScimClient(t);
  const at = (path: string) => `http://${SCIM_HOST}${scim.base}${path}`;
  const get = (path: string) => scim.send('get', path).expect(200);

  it('says what the service provider supports', async () => {
    const res = await get('/ServiceProviderConfig');
    expect(res.headers['content-type']).toBe(SCIM_JSON);
    expect(res.body).toStrictEqual({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 200 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'OAuth Bearer Token',
          description:
            'An app token of the tenant with the scim:provision scope, in the Authorization header.',
          primary: true,
        },
      ],
      meta: {
        resourceType: 'ServiceProviderConfig',
        location: at('/ServiceProviderConfig'),
      },
    });
  });

  it('lists the User and Group resource types', async () => {
    const res = await scim
      .send('get', '/ResourceTypes')
      .set('Accept', 'application/scim+json')
      .expect(200);
    expect(res.headers['content-type']).toBe(SCIM_JSON);
    const user = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'User Account: an identity of the tenant',
      schema: USER,
      schemaExtensions: [{ schema: EXTENSION, required: false }],
      meta: {
        resourceType: 'ResourceType',
        location: at('/ResourceTypes/User'),
      },
    };
    const group = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Group: a role of the tenant',
      schema: GROUP,
      schemaExtensions: [],
      meta: {
        resourceType: 'ResourceType',
        location: at('/ResourceTypes/Group'),
      },
    };
    expect(res.body).toStrictEqual({
      schemas: [LIST],
      totalResults: 2,
      startIndex: 1,
      itemsPerPage: 2,
      Resources: [user, group],
    });
    expect((await get('/ResourceTypes/User')).body).toStrictEqual(user);
  });

  it('describes every attribute with all its characteristics', async () => {
    const res = await get('/Schemas');
    expect(res.body).toMatchObject({
      schemas: [LIST],
      totalResults: 3,
      startIndex: 1,
      itemsPerPage: 3,
    });
    const schemas = res.body.Resources;
    expect(schemas.map((s: any) => s.id)).toStrictEqual([
      USER,
      EXTENSION,
      GROUP,
    ]);
    for (const schema of schemas) {
      expect(Object.keys(schema).sort()).toStrictEqual([
        'attributes',
        'description',
        'id',
        'meta',
        'name',
        'schemas',
      ]);
      expect(schema.schemas).toStrictEqual([
        'urn:ietf:params:scim:schemas:core:2.0:Schema',
      ]);
      expect(schema.meta).toStrictEqual({
        resourceType: 'Schema',
        location: at(`/Schemas/${schema.id}`),
      });
      for (const [path, attribute] of attributesOf(schema.attributes)) {
        for (const key of CHARACTERISTICS)
          expect([path, key, attribute[key] !== undefined]).toStrictEqual([
            path,
            key,
            true,
          ]);
        expect([path, attribute.subAttributes !== undefined]).toStrictEqual([
          path,
          attribute.type === 'complex',
        ]);
        if (attribute.type === 'reference')
          expect(attribute.referenceTypes).toBeInstanceOf(Array);
      }
      expect((await get(`/Schemas/${schema.id}`)).body).toStrictEqual(schema);
    }
    const paths = (id: string) =>
      attributesOf(schemas.find((s: any) => s.id === id).attributes).map(
        ([path]) => path,
      );
    expect(paths(GROUP)).toStrictEqual([
      'displayName',
      'members',
      'members.value',
      'members.$ref',
      'members.display',
      'members.type',
    ]);
    expect(paths(USER)).toEqual(
      expect.arrayContaining([
        'userName',
        'name.givenName',
        'name.familyName',
        'displayName',
        'emails.value',
        'emails.primary',
        'phoneNumbers.value',
        'photos.value',
        'locale',
        'active',
      ]),
    );
    expect(paths(EXTENSION)).toEqual(
      expect.arrayContaining([
        'givenNames',
        'surnames',
        'localities',
        'isArchived',
        'properties.name',
        'accounts.accountId',
      ]),
    );
  });

  it('answers unknown ids and routes with a SCIM 404', async () => {
    for (const path of ['/Schemas/urn:nope', '/ResourceTypes/Nope', '/Nope']) {
      const res = await scim.send('get', path).expect(404);
      expect(res.headers['content-type']).toBe(SCIM_JSON);
      expect(res.body).toStrictEqual({
        schemas: [ERROR],
        status: '404',
        detail: expect.stringMatching(/^There is no resource at /),
      });
    }
  });

  it('answers 401, 403, 405 and 406 as SCIM errors', async () => {
    const expectError = async (req: any, status: number, detail: string) => {
      const res = await req.expect(status);
      expect(res.headers['content-type']).toBe(SCIM_JSON);
      expect(res.body).toStrictEqual({
        schemas: [ERROR],
        status: String(status),
        detail,
      });
      return res;
    };
    const anonymous = await expectError(
      scim.send('get', '/Schemas', ''),
      401,
      'Send an access token in the Authorization header (Bearer) or in the access_token query parameter.',
    );
    expect(anonymous.headers['www-authenticate']).toBe(
      `Bearer realm="${scim.tenant.id}"`,
    );
    for (const token of [ACCESS_TOKEN, READ_TOKEN])
      await expectError(
        scim.send('get', '/Schemas', token),
        403,
        'SCIM provisioning needs an app token with the scim:provision scope.',
      );
    const post = await expectError(
      scim.send('post', '/Schemas'),
      405,
      'POST is not allowed here; allowed: GET, HEAD.',
    );
    expect(post.headers.allow).toBe('GET, HEAD');
    await expectError(
      scim.send('get', '/Schemas').set('Accept', 'text/html'),
      406,
      'This resource is only available as application/scim+json or application/json.',
    );
  });
});
