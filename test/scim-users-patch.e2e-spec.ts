import { ACCESS_TOKEN, SCIM_TENANT, scimClient } from './support/scim-tenant';
import { error, EXT, PATCH, USER, useScimUsers } from './support/scim-users';

// Users changed by PATCH as directories send it, and the types and
// primaries of their values.
describe('SCIM Users', () => {
  const { t, scim, create, events } = useScimUsers();

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
