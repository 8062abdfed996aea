import { useTestApp } from './support/test-app';
import { SCIM_JSON, useScimClient } from './support/scim-tenant';

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

// RFC 7644 §3.4.3: a query as a POSTed SearchRequest, per type and at the root.
describe('SCIM searches', () => {
  const t = useTestApp();
  const scim = useScimClient(t);
  beforeAll(async () => {
    await scim
      .write('post', '/Users', { schemas: [USER], userName: 'grace' })
      .expect(201);
    for (const displayName of ['staff', 'students'])
      await scim
        .write('post', '/Groups', { schemas: [GROUP], displayName })
        .expect(201);
  });

  const search = (path: string, body: object) =>
    scim.write('post', path, body).expect('Content-Type', SCIM_JSON);

  it('answers POST /Users/.search as the GET it stands for', async () => {
    const r = await search('/Users/.search', {
      schemas: [SEARCH],
      filter: 'userName sw "a"',
      attributes: ['userName'],
      startIndex: 1,
      count: 10,
    }).expect(200);
    const get = await scim
      .send('get', '/Users?filter=userName%20sw%20%22a%22&attributes=userName')
      .expect(200);
    expect(r.body).toStrictEqual(get.body);
    expect(r.body).toStrictEqual({
      schemas: [LIST],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
      Resources: [
        { schemas: expect.any(Array), id: 'ada', userName: 'ada.lovelace' },
      ],
    });
  });

  it('answers POST /Groups/.search', async () => {
    const r = await search('/Groups/.search', {
      schemas: [SEARCH],
      filter: 'displayName sw "st"',
      excludedAttributes: 'members',
      count: 1,
    }).expect(200);
    expect([r.body.totalResults, r.body.itemsPerPage]).toStrictEqual([2, 1]);
    expect(r.body.Resources[0].displayName).toBe('staff');
  });

  it('searches Users then Groups at the root, paged as one list', async () => {
    const all = await search('/.search', { schemas: [SEARCH] }).expect(200);
    expect(all.body.totalResults).toBe(4);
    expect(
      all.body.Resources.map(
        (r: { userName?: string; displayName?: string }) =>
          r.userName ?? r.displayName,
      ),
    ).toStrictEqual([
      expect.any(String),
      expect.any(String),
      'staff',
      'students',
    ]);
    const page = await search('/.search', {
      schemas: [SEARCH],
      startIndex: 2,
      count: 2,
    }).expect(200);
    expect([page.body.startIndex, page.body.itemsPerPage]).toStrictEqual([
      2, 2,
    ]);
    expect(page.body.Resources[1].displayName).toBe('staff');
    // An attribute only Groups have: no User matches it.
    const groups = await search('/.search', {
      filter: 'displayName eq "students" and members pr',
    }).expect(200);
    expect(groups.body.totalResults).toBe(0);
    const users = await search('/.search', {
      filter: 'userName eq "grace"',
    }).expect(200);
    expect(
      users.body.Resources.map((u: { userName: string }) => u.userName),
    ).toStrictEqual(['grace']);
    const neither = await search('/.search', { filter: 'title eq "x"' }).expect(
      400,
    );
    expect(neither.body).toStrictEqual({
      schemas: [ERROR],
      status: '400',
      scimType: 'invalidFilter',
      detail: 'The filter is not valid: "title" cannot be filtered on.',
    });
  });

  it('refuses a body that is not a SearchRequest', async () => {
    for (const [body, detail] of [
      [{ schemas: ['urn:x'] }, `schemas must be ["${SEARCH}"].`],
      [{ count: 'ten' }, 'count must be a whole number.'],
      [
        { attributes: ['userName', 3] },
        'attributes[1] must be a string without U+0000.',
      ],
      [
        { filter: 'userName eq "\u0000"' },
        'filter must be a string without U+0000.',
      ],
    ] as const) {
      const r = await search('/Users/.search', body).expect(400);
      expect(r.body).toStrictEqual({
        schemas: [ERROR],
        status: '400',
        scimType: 'invalidSyntax',
        detail,
      });
    }
  });

  it('takes attributes repeated as parameters, and refuses U+0000 in them', async () => {
    const repeated = await scim
      .send('get', '/Users/ada?attributes=userName&attributes=displayName')
      .expect(200);
    expect(repeated.body).toStrictEqual({
      schemas: expect.any(Array),
      id: 'ada',
      userName: 'ada.lovelace',
      displayName: 'Ada',
    });
    for (const parameter of ['attributes', 'excludedAttributes']) {
      const r = await scim
        .send('get', `/Users/ada?${parameter}=userName%00`)
        .expect(400);
      expect(r.body).toStrictEqual({
        schemas: [ERROR],
        status: '400',
        scimType: 'invalidValue',
        detail: `${parameter} must not contain U+0000`,
      });
    }
  });
});

describe('SCIM in the OpenAPI document', () => {
  const t = useTestApp();
  const scim = useScimClient(t);

  it('documents the token in the query, which SCIM takes, and the bodies it takes', async () => {
    const token = scim.tenant.token('scim-directory-app-token-0001');
    await t
      .http()
      .get(`${scim.base}/Users/ada?access_token=${token}`)
      .expect(200);
    const { body } = await t.http().get('/openapi.json').expect(200);
    const users = body.paths['/{tenant}/scim/v2/Users'];
    // The query's token is a security scheme of its own, the alternative to
    // the bearer header (both at once is a 400): never a parameter as well.
    expect(users.get.security).toStrictEqual([
      { bearer: [] },
      { access_token: [] },
    ]);
    expect(body.components.securitySchemes.access_token).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'access_token',
    });
    expect(
      users.get.parameters.map((p: { name: string }) => p.name),
    ).not.toContain('access_token');
    const schemaOf = (operation: {
      requestBody: { content: Record<string, { schema: object }> };
    }) => Object.values(operation.requestBody.content)[0].schema;
    expect(schemaOf(users.post)).toMatchObject({ required: ['userName'] });
    expect(
      schemaOf(body.paths['/{tenant}/scim/v2/Users/{id}'].patch),
    ).toMatchObject({
      required: ['schemas', 'Operations'],
      properties: { Operations: { maxItems: 500 } },
    });
    for (const method of ['post', 'put', 'patch'] as const) {
      const path =
        method === 'post'
          ? '/{tenant}/scim/v2/Groups'
          : '/{tenant}/scim/v2/Groups/{id}';
      expect(Object.keys(body.paths[path][method].responses)).toEqual(
        expect.arrayContaining(['413', '415']),
      );
    }
  });
});
