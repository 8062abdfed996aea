import { startTestApp, TestApp } from './support/test-app';
import {
  ACCESS_TOKEN,
  READ_TOKEN,
  SCIM_HOST,
  SCIM_JSON,
  SCIM_TENANT,
  scimClient,
  ScimClient,
} from './support/scim-tenant';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const EXT = 'urn:ietf:params:scim:schemas:extension:identity:2.0:User';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const byText = (x: string, y: string) => x.localeCompare(y);
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const GRACE = {
  schemas: [USER],
  userName: 'Grace@Example.org',
  externalId: 'ext-grace',
  name: { givenName: 'Grace', familyName: 'Hopper' },
  displayName: 'Grace Hopper',
  emails: [
    { value: 'grace@example.org', type: 'work', primary: true },
    { value: 'amazing@example.net', type: 'home' },
  ],
  phoneNumbers: [
    { value: '+1 555 0100', type: 'mobile' },
    { value: '+1 555 0199', type: 'work' },
  ],
  photos: [
    { value: 'https://pictures.example/grace/l.jpg', type: 'photo' },
    { value: 'https://pictures.example/grace/s.jpg', type: 'thumbnail' },
  ],
  locale: 'en-US',
  active: true,
};

describe('SCIM Users', () => {
  let t: TestApp;
  let scim: ScimClient;
  beforeAll(async () => {
    t = await startTestApp();
  });
  beforeEach(async () => {
    scim = await scimClient(t);
  });
  afterAll(() => t.close());

  const create = async (body: object = GRACE) => {
    const res = await scim.write('post', '/Users', body).expect(201);
    return res;
  };
  const error = (
    status: number,
    scimType: string | undefined,
    detail: any,
  ) => ({
    schemas: [ERROR],
    status: String(status),
    ...(scimType && { scimType }),
    detail,
  });
  const events = (identityId: string) =>
    t.database.prisma.identityEvent.findMany({
      where: { tenantId: scim.tenant.id, identityId },
      orderBy: { id: 'asc' },
      select: { type: true, fields: true },
    });

  it('creates a User: 201, Location, ETag, the whole representation, an event', async () => {
    const res = await create();
    const id = res.body.id;
    const location = `http://${SCIM_HOST}${scim.base}/Users/${id}`;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['content-type']).toBe(SCIM_JSON);
    expect(res.headers.location).toBe(location);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(res.body).toStrictEqual({
      schemas: [USER, EXT],
      id,
      externalId: 'ext-grace',
      userName: 'Grace@Example.org',
      name: {
        formatted: 'Grace Hopper',
        familyName: 'Hopper',
        givenName: 'Grace',
      },
      displayName: 'Grace Hopper',
      locale: 'en-US',
      active: true,
      // As sent: types and primaries are kept; the work phone is not.
      emails: [
        { value: 'grace@example.org', type: 'work', primary: true },
        { value: 'amazing@example.net', type: 'home' },
      ],
      phoneNumbers: [{ value: '+1 555 0100', type: 'mobile' }],
      photos: [
        { value: 'https://pictures.example/grace/l.jpg', type: 'photo' },
        { value: 'https://pictures.example/grace/s.jpg', type: 'thumbnail' },
      ],
      [EXT]: {
        givenNames: ['Grace'],
        surnames: ['Hopper'],
        localities: ['en-US'],
        properties: [],
        isArchived: false,
        emailAddressVerified: false,
        mobilePhoneVerified: false,
        oldIdentityIds: [],
        accounts: [],
      },
      meta: {
        resourceType: 'User',
        created: expect.stringMatching(/Z$/),
        lastModified: res.body.meta.created,
        location,
        version: res.headers.etag,
      },
    });
    expect(await events(id)).toStrictEqual([
      {
        type: 'created',
        fields: expect.arrayContaining([
          'userName',
          'externalId',
          'emailAddress',
          'mobilePhone',
        ]),
      },
    ]);
    // The same identity through the identity API, with the same ETag.
    const api = await t
      .http()
      .get(`${scim.tenant.api}/${id}`)
      .set('Authorization', `Bearer ${scim.tenant.token(READ_TOKEN)}`)
      .expect(200);
    expect(api.headers.etag).toBe(res.headers.etag);
    expect(api.body).toMatchObject({
      identityId: id,
      userName: 'Grace@Example.org',
      externalId: 'ext-grace',
      emailAddress: 'grace@example.org',
      emailAddresses: ['grace@example.org', 'amazing@example.net'],
      mobilePhone: '+1 555 0100',
      largePictures: ['https://pictures.example/grace/l.jpg'],
      smallPictures: ['https://pictures.example/grace/s.jpg'],
      locality: 'en-US',
      disabled: false,
    });
    // And through the tenant export, which imports back the same.
    const file: any = await t.tenants.exportTenant(scim.tenant.id);
    expect(file.identities.find((i: any) => i.identityId === id)).toMatchObject(
      {
        userName: 'Grace@Example.org',
        externalId: 'ext-grace',
      },
    );
    await scim
      .send('get', `/Users/${id}`)
      .expect(200)
      .expect('ETag', res.headers.etag)
      .expect((r) => expect(r.body).toStrictEqual(res.body));
  });

  it('refuses a taken userName in any case with 409 uniqueness, on SCIM and on the identity API', async () => {
    await create();
    const res = await scim
      .write('post', '/Users', { ...GRACE, userName: 'grace@EXAMPLE.org' })
      .expect(409);
    expect(res.headers['content-type']).toBe(SCIM_JSON);
    expect(res.body).toStrictEqual(
      error(
        409,
        'uniqueness',
        'The userName is taken by another identity of the tenant (compared case-insensitively).',
      ),
    );
    const put = await t
      .http()
      .put(scim.tenant.api)
      .set('Authorization', `Bearer ${scim.tenant.token(ACCESS_TOKEN)}`)
      .set('Content-Type', 'application/json')
      .send({ userName: 'GRACE@example.org' })
      .expect(409);
    expect(put.headers['content-type']).toBe('application/problem+json');
  });

  it('refuses bodies it cannot take with 400 and changes nothing', async () => {
    const cases: [object, string, string][] = [
      [{ schemas: [USER] }, 'invalidValue', 'userName is required.'],
      [
        { ...GRACE, active: 'maybe' },
        'invalidValue',
        'active must be true or false.',
      ],
      [
        { ...GRACE, emails: [{ value: 'not an address', primary: true }] },
        'invalidValue',
        expect.stringContaining('emailAddress'),
      ],
      [
        { ...GRACE, locale: 'english' },
        'invalidValue',
        expect.stringContaining('locality'),
      ],
    ];
    for (const [body, scimType, detail] of cases)
      await scim
        .write('post', '/Users', body)
        .expect(400)
        .expect((r) =>
          expect(r.body).toStrictEqual(error(400, scimType, detail)),
        );
    await scim
      .send('post', '/Users')
      .set('Content-Type', 'application/scim+json')
      .send('{"userName":')
      .expect(400)
      .expect((r) =>
        expect(r.body).toStrictEqual(
          error(400, 'invalidSyntax', 'The request body is not valid JSON.'),
        ),
      );
    await scim
      .send('post', '/Users')
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(415)
      .expect((r) =>
        expect(r.body).toStrictEqual(
          error(
            415,
            undefined,
            'The request body must be application/scim+json or application/json.',
          ),
        ),
      );
    const list = await scim.send('get', '/Users').expect(200);
    expect(list.body.totalResults).toBe(1);
  });

  it('filters with every operator in SQL, and refuses other filters with invalidFilter', async () => {
    const a = (await create()).body.id;
    const b = (
      await create({
        schemas: [USER],
        userName: 'linus_t',
        displayName: '100% Linus',
        externalId: 'EXT-linus',
        emails: [{ value: 'linus@example.com', primary: true }],
        active: false,
      })
    ).body.id;
    const ids = async (filter: string) => {
      const res = await scim
        .send('get', `/Users?filter=${encodeURIComponent(filter)}`)
        .expect(200);
      return res.body.Resources.map((r: any) => r.id).sort(byText);
    };
    const ada = (await ids('userName eq "ada.lovelace"'))[0];
    const all = [a, b, ada].sort(byText);
    const cases: [string, string[]][] = [
      ['userName eq "GRACE@example.ORG"', [a]],
      ['userName ne "grace@example.org"', [ada, b].sort(byText)],
      ['userName co "_"', [b]],
      ['userName co "%"', []],
      ['userName sw "grace"', [a]],
      ['userName ew ".ORG"', [a]],
      ['displayName sw "100%"', [b]],
      ['externalId eq "ext-linus"', []],
      ['externalId eq "EXT-linus"', [b]],
      ['externalId pr', [a, b].sort(byText)],
      [`id eq "${a}"`, [a]],
      ['emails.value eq "LINUS@example.com"', [b]],
      ['emails co "amazing"', [a]],
      ['emails[value ew ".net"]', [a]],
      ['active eq false', [b]],
      ['active eq true and not (userName sw "ada")', [a]],
      ['userName gt "h" or userName lt "b"', [ada, b].sort(byText)],
      ['userName ge "linus_t" and userName le "linus_t"', [b]],
      ['meta.lastModified gt "2000-01-01T00:00:00Z"', all],
      ['meta.lastModified lt "2000-01-01T00:00:00Z"', []],
      ['active pr', all],
      ['not (active pr)', []],
      ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "linus_t"', [b]],
    ];
    for (const [filter, expected] of cases)
      expect([filter, await ids(filter)]).toStrictEqual([filter, expected]);
    for (const filter of [
      'title eq "x"',
      'userName eq',
      'userName zz "x"',
      'active co "t"',
      'emails[type eq "work"]',
      'meta.lastModified gt "yesterday"',
      'meta.lastModified gt "0000-01-01T00:00:00Z"',
      'meta.lastModified gt "-271821-04-20T00:00:00Z"',
      '(((((((',
    ])
      await scim
        .send('get', `/Users?filter=${encodeURIComponent(filter)}`)
        .expect(400)
        .expect((r) =>
          expect([filter, r.body.scimType]).toStrictEqual([
            filter,
            'invalidFilter',
          ]),
        );
  });

  it('pages with startIndex and count, and projects attributes', async () => {
    for (const n of [1, 2, 3])
      await create({ schemas: [USER], userName: `user${n}` });
    const page = await scim
      .send('get', '/Users?startIndex=2&count=2&attributes=userName')
      .expect(200);
    const sorted = (
      await scim.send('get', '/Users?attributes=id').expect(200)
    ).body.Resources.map((r: any) => r.id);
    expect(page.body).toStrictEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 4,
      startIndex: 2,
      itemsPerPage: 2,
      Resources: sorted.slice(1, 3).map((id: string) => ({
        schemas: [USER, EXT],
        id,
        userName: expect.any(String),
      })),
    });
    const countOnly = await scim.send('get', '/Users?count=0').expect(200);
    expect(countOnly.body).toMatchObject({
      totalResults: 4,
      itemsPerPage: 0,
      Resources: [],
    });
    const beyond = await scim
      .send('get', '/Users?startIndex=99&count=1000')
      .expect(200);
    expect(beyond.body).toMatchObject({
      totalResults: 4,
      startIndex: 99,
      itemsPerPage: 0,
    });
    const id = sorted[0];
    const reduced = await scim
      .send('get', `/Users/${id}?excludedAttributes=${EXT},meta,emails.type`)
      .expect(200);
    expect(Object.keys(reduced.body).sort()).toStrictEqual(
      ['active', 'displayName', 'id', 'schemas', 'userName']
        .filter((k) => k in reduced.body)
        .sort(),
    );
    expect(reduced.body[EXT]).toBeUndefined();
    const some = await scim
      .send('get', `/Users/${id}?attributes=name.givenName,${EXT}:givenNames`)
      .expect(200);
    expect(Object.keys(some.body).sort()).toStrictEqual(
      ['id', 'schemas', ...(some.body[EXT] ? [EXT] : [])].sort(byText),
    );
    await scim.send('get', '/Users?count=ten').expect(400);
  });

  it('replaces with PUT, honours If-Match (412) and bumps the version', async () => {
    const created = await create();
    const id = created.body.id;
    const put = await scim
      .write('put', `/Users/${id}`, {
        schemas: [USER],
        userName: 'grace',
        displayName: 'Amazing Grace',
        active: false,
      })
      .set('If-Match', created.headers.etag)
      .expect(200);
    expect(put.headers.etag).not.toBe(created.headers.etag);
    expect(put.body).toMatchObject({
      userName: 'grace',
      displayName: 'Amazing Grace',
      active: false,
    });
    expect(put.body.externalId).toBeUndefined();
    expect(put.body.emails).toBeUndefined();
    expect(put.body[EXT].givenNames).toStrictEqual(['Grace']);
    expect(put.body.meta.version).toBe(put.headers.etag);
    await scim
      .write('put', `/Users/${id}`, { schemas: [USER], userName: 'late' })
      .set('If-Match', created.headers.etag)
      .expect(412)
      .expect((r) =>
        expect(r.body).toStrictEqual(error(412, undefined, expect.any(String))),
      );
    await scim
      .send('delete', `/Users/${id}`)
      .set('If-Match', created.headers.etag)
      .expect(412);
    expect((await events(id)).map((e) => e.type)).toStrictEqual([
      'created',
      'updated',
    ]);
  });

  it('patches as RFC 7644, Entra ID and Okta send it', async () => {
    const id = (await create()).body.id;
    const patch = (...Operations: object[]) =>
      scim.write('patch', `/Users/${id}`, { schemas: [PATCH], Operations });
    // Entra ID: op in any case, a path, booleans as strings.
    let res = await patch({
      op: 'Replace',
      path: 'active',
      value: 'False',
    }).expect(200);
    expect(res.body.active).toBe(false);
    res = await patch({
      op: 'Add',
      path: 'emails[type eq "work"].value',
      value: 'hopper@example.org',
    }).expect(200);
    expect(res.body.emails[0]).toStrictEqual({
      value: 'hopper@example.org',
      type: 'work',
      primary: true,
    });
    // Okta and Entra: replace without a path, dotted keys.
    res = await patch({
      op: 'replace',
      value: { active: true, 'name.givenName': 'Amazing', displayName: 'G' },
    }).expect(200);
    expect(res.body).toMatchObject({
      active: true,
      displayName: 'G',
      name: { givenName: 'Amazing', familyName: 'Hopper' },
    });
    res = await patch(
      { op: 'remove', path: 'phoneNumbers[type eq "mobile"]' },
      {
        op: 'add',
        path: `${EXT}:properties`,
        value: [{ name: 'team', value: 'Navy' }],
      },
    ).expect(200);
    expect(res.body.phoneNumbers).toBeUndefined();
    expect(res.body[EXT].properties).toStrictEqual([
      { name: 'team', value: 'Navy' },
    ]);
    const before = res.headers.etag;
    for (const [ops, scimType] of [
      [[{ op: 'replace', path: 'id', value: 'other' }], 'mutability'],
      [[{ op: 'remove' }], 'noTarget'],
      [[{ op: 'jump', path: 'x' }], 'invalidSyntax'],
      [[], 'invalidSyntax'],
    ] as [object[], string][])
      await patch(...ops).expect((r) =>
        expect([ops, r.status, r.body.scimType]).toStrictEqual([
          ops,
          400,
          scimType,
        ]),
      );
    await scim.send('get', `/Users/${id}`).expect('ETag', before);
    expect((await events(id)).map((e) => e.fields.sort())).toStrictEqual([
      expect.arrayContaining(['userName', 'externalId']),
      ['disabled'],
      ['emailAddress', 'emailAddresses'],
      ['disabled', 'displayName', 'givenName', 'givenNames'],
      ['mobilePhone', 'properties'],
    ]);
  });

  it('disables an identity: its access token answers 403 at once', async () => {
    const ada = (
      await scim
        .send('get', '/Users?filter=userName eq "ada.lovelace"')
        .expect(200)
    ).body.Resources[0];
    const me = () =>
      t
        .http()
        .get(scim.tenant.api)
        .set('Authorization', `Bearer ${scim.tenant.token(ACCESS_TOKEN)}`);
    await me().expect(200);
    await scim
      .write('patch', `/Users/${ada.id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      })
      .expect(200);
    await me().expect(403);
  });

  it('deletes: 204, its tokens gone, a deleted event, then 404', async () => {
    const ada = (
      await scim
        .send('get', '/Users?filter=userName eq "ada.lovelace"')
        .expect(200)
    ).body.Resources[0];
    await scim
      .send('delete', `/Users/${ada.id}`)
      .set('If-Match', ada.meta.version)
      .expect(204);
    expect(
      await t.database.prisma.token.count({
        where: { tenantId: scim.tenant.id, identityId: ada.id },
      }),
    ).toBe(0);
    await t
      .http()
      .get(scim.tenant.api)
      .set('Authorization', `Bearer ${scim.tenant.token(ACCESS_TOKEN)}`)
      .expect(401);
    expect((await events(ada.id)).map((e) => e.type)).toStrictEqual([
      'imported',
      'deleted',
    ]);
    await scim
      .send('get', `/Users/${ada.id}`)
      .expect(404)
      .expect((r) =>
        expect(r.body).toStrictEqual(
          error(
            404,
            undefined,
            `No identity "${ada.id}" is visible to the caller in this tenant.`,
          ),
        ),
      );
  });

  it('patches an identity made without a userName, and keeps one that has it', async () => {
    const own = await scimClient(t, {
      ...SCIM_TENANT,
      identities: [
        ...SCIM_TENANT.identities,
        { identityId: 'erin', displayName: 'Erin' },
      ],
    });
    const disable = {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    };
    const patched = await own
      .write('patch', '/Users/erin', disable)
      .expect(200);
    expect(patched.body).toMatchObject({ id: 'erin', active: false });
    expect(patched.body.userName).toBeUndefined();
    const lose = await own
      .write('patch', '/Users/ada', {
        schemas: [PATCH],
        Operations: [{ op: 'remove', path: 'userName' }],
      })
      .expect(400);
    expect(lose.body).toStrictEqual(
      error(400, 'invalidValue', 'userName is required.'),
    );
  });

  it('answers 404 for an id no resource can have, and ignores sub-attributes of plain values', async () => {
    for (const path of ['/Users/%00', '/Groups/%00'])
      await scim
        .send('get', path)
        .expect(404)
        .expect((r) =>
          expect([r.body.schemas, r.body.status]).toStrictEqual([
            [ERROR],
            '404',
          ]),
        );
    const ada = await scim
      .send(
        'get',
        '/Users?filter=userName%20eq%20%22ada.lovelace%22&excludedAttributes=userName.0,displayName.x',
      )
      .expect(200);
    expect(ada.body.Resources[0]).toMatchObject({
      userName: 'ada.lovelace',
      displayName: 'Ada',
    });
  });

  it('is for app tokens with scim:provision only', async () => {
    for (const token of [ACCESS_TOKEN, READ_TOKEN])
      await scim
        .send('get', '/Users', token)
        .expect(403)
        .expect('Content-Type', SCIM_JSON)
        .expect((r) =>
          expect(r.body).toStrictEqual(
            error(
              403,
              undefined,
              'SCIM provisioning needs an app token with the scim:provision scope.',
            ),
          ),
        );
    await scim
      .send('get', '/Users', 'no-such-token-000000000000')
      .expect(401)
      .expect('Content-Type', SCIM_JSON);
  });
  it('keeps the type and primary a directory gives its values, while they describe the identity', async () => {
    const ada = '/Users/ada';
    const patch = (...Operations: object[]) =>
      scim.write('patch', ada, { schemas: [PATCH], Operations });
    const identity = () =>
      t
        .http()
        .get(scim.tenant.api)
        .set('Authorization', `Bearer ${scim.tenant.token(ACCESS_TOKEN)}`)
        .expect(200);
    let res = await patch({
      op: 'add',
      value: {
        emails: [
          { value: 'ada@home.example', type: 'home', primary: false },
          { value: 'ada@work.example', primary: true },
        ],
        phoneNumbers: [{ value: '+44 20 7946 0000', type: 'mobile' }],
        photos: [
          { value: 'https://pictures.example/ada.png', type: 'thumbnail' },
        ],
      },
    }).expect(200);
    expect(res.body).toMatchObject({
      emails: [
        { value: 'ada@home.example', type: 'home', primary: false },
        { value: 'ada@work.example', primary: true },
      ],
      phoneNumbers: [{ value: '+44 20 7946 0000', type: 'mobile' }],
      photos: [
        { value: 'https://pictures.example/ada.png', type: 'thumbnail' },
      ],
    });
    expect((await identity()).body).toMatchObject({
      emailAddress: 'ada@work.example',
      emailAddresses: ['ada@home.example', 'ada@work.example'],
      mobilePhone: '+44 20 7946 0000',
      smallPictures: ['https://pictures.example/ada.png'],
    });
    // As read back, so on a GET.
    await scim
      .send('get', ada)
      .expect(200)
      .expect((r) => expect(r.body.emails).toStrictEqual(res.body.emails));
    // Making a value primary makes the one before it no longer so.
    const before = res.headers.etag;
    res = await patch({
      op: 'replace',
      path: 'emails[value eq "ada@home.example"].primary',
      value: true,
    }).expect(200);
    expect(res.body.emails).toStrictEqual([
      { value: 'ada@home.example', type: 'home', primary: true },
      { value: 'ada@work.example', primary: false },
    ]);
    expect((await identity()).body.emailAddress).toBe('ada@home.example');
    expect(res.headers.etag).not.toBe(before);
    // A type alone changes the version, with an event that names no field.
    const typed = await patch({
      op: 'replace',
      path: 'emails[value eq "ada@work.example"].type',
      value: 'work',
    }).expect(200);
    expect(typed.body.emails[1]).toStrictEqual({
      value: 'ada@work.example',
      type: 'work',
      primary: false,
    });
    expect(typed.headers.etag).not.toBe(res.headers.etag);
    expect((await events('ada')).at(-1)).toStrictEqual({
      type: 'updated',
      fields: [],
    });
    // The same User again changes nothing.
    const same = await scim
      .write('put', ada, { ...typed.body, meta: undefined })
      .expect(200);
    expect(same.headers.etag).toBe(typed.headers.etag);
    // Values changed elsewhere: the service describes them by itself again.
    await t
      .http()
      .put(scim.tenant.api)
      .set('Authorization', `Bearer ${scim.tenant.token(ACCESS_TOKEN)}`)
      .set('Content-Type', 'application/json')
      .send({
        emailAddresses: ['ada@home.example', 'ada@work.example', 'a@x.example'],
        mobilePhone: '+44 20 7946 0001',
      })
      .expect(200);
    res = await scim.send('get', ada).expect(200);
    expect(res.body).toMatchObject({
      emails: [
        { value: 'ada@home.example', type: 'work', primary: true },
        { value: 'ada@work.example', type: 'other', primary: false },
        { value: 'a@x.example', type: 'other', primary: false },
      ],
      phoneNumbers: [
        { value: '+44 20 7946 0001', type: 'mobile', primary: true },
      ],
      photos: [
        { value: 'https://pictures.example/ada.png', type: 'thumbnail' },
      ],
    });
    // /Schemas says so.
    const schema = await scim.send('get', `/Schemas/${USER}`).expect(200);
    const emails = schema.body.attributes.find(
      (a: { name: string }) => a.name === 'emails',
    );
    expect(
      emails.subAttributes.map((a: any) => [a.name, a.mutability]),
    ).toStrictEqual([
      ['value', 'readWrite'],
      ['type', 'readWrite'],
      ['primary', 'readWrite'],
    ]);
  });

  it('refuses a type it would not keep: 400, and nothing changes', async () => {
    const before = (await scim.send('get', '/Users/ada').expect(200)).headers
      .etag;
    for (const [type, detail] of [
      ['x'.repeat(65), 'emails[0].type must be at most 64 characters.'],
      [5, 'emails[0].type must be a string.'],
    ])
      await scim
        .write('patch', '/Users/ada', {
          schemas: [PATCH],
          Operations: [
            {
              op: 'add',
              path: 'emails',
              value: [{ value: 'a@b.example', type }],
            },
          ],
        })
        .expect(400)
        .expect((r) =>
          expect(r.body).toStrictEqual(error(400, 'invalidValue', detail)),
        );
    await scim.send('get', '/Users/ada').expect('ETag', before);
  });
});
