import {
  ACCESS_TOKEN,
  READ_TOKEN,
  SCIM_HOST,
  SCIM_JSON,
} from './support/scim-tenant';
import {
  error,
  EXT,
  GRACE,
  PATCH,
  USER,
  useScimUsers,
} from './support/scim-users';

// Users written by a directory: created, replaced, disabled and deleted,
// and the bodies refused on the way.
describe('SCIM Users', () => {
  const { t, scim, create, events } = useScimUsers();

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
});
