import { ACCESS_TOKEN, READ_TOKEN, SCIM_JSON } from './support/scim-tenant';
import {
  byText,
  ERROR,
  error,
  EXT,
  USER,
  useScimUsers,
} from './support/scim-users';

// Users read by a directory: filtered, paged and projected, and who may
// read them.
describe('SCIM Users', () => {
  const { scim, create } = useScimUsers();

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
});
