import { FIELD_NAMES } from '../src/identity/identity-fields';
import { API, example, TOKENS } from './support/example';
import { useTestApp } from './support/test-app';

describe('GET endpoints (example tenant)', () => {
  const t = useTestApp({ tenants: [example()] });

  const ADA = {
    identityId: 'ada',
    displayName: 'Ada Lovelace',
    userName: 'ada',
    externalId: 'ext-ada',
    emailAddress: 'ada@example.org',
    emailAddresses: ['ada@example.org', 'countess@example.net'],
    emailAddressVerified: true,
    givenName: 'Ada',
    givenNames: ['Ada', 'Augusta'],
    surname: 'Lovelace',
    surnames: ['Lovelace', 'King'],
    locality: 'en-GB',
    localities: ['en-GB', 'fr-FR'],
    mobilePhone: '+44 20 7946 0018',
    mobilePhoneVerified: true,
    privatePersonalIdentifier: 'b1f3c2d4-0001',
    lastLogin: '2026-11-20T08:15:30.250',
    smallPictures: ['https://pictures.example.org/ada/s.jpg'],
    mediumPictures: ['https://pictures.example.org/ada/m.jpg'],
    largePictures: ['https://pictures.example.org/ada/l.jpg'],
    userNamePasswordAccountUserName: 'ada',
    oldIdentityIds: ['ada-old'],
    properties: { department: 'Analytical Engines', employeeNumber: '1815' },
    disabled: false,
    isArchived: false,
  };

  it('returns the current identity with every field', async () => {
    // Ada has a value in every field, so that a new field is read, exported
    // and re-imported, and checked against the OpenAPI document, with hers.
    expect(Object.keys(ADA).sort()).toStrictEqual([...FIELD_NAMES].sort());
    const res = await t.as(TOKENS.ada).get(API).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(res.body).toStrictEqual(ADA);
  });

  it('returns the same identity by id', async () => {
    const res = await t.as(TOKENS.ada).get(`${API}/ada`).expect(200);
    expect(res.body).toStrictEqual(ADA);
  });

  it('leaves out absent fields and keeps the always-present ones', async () => {
    const res = await t.as(TOKENS.ada).get(`${API}/mary`).expect(200);
    expect(res.body).toStrictEqual({
      identityId: 'mary',
      displayName: 'Mary Somerville',
      emailAddress: 'mary@example.org',
      emailAddresses: ['mary@example.org'],
      emailAddressVerified: false,
      givenName: 'Mary',
      givenNames: ['Mary'],
      surname: 'Somerville',
      surnames: ['Somerville'],
      locality: 'en-GB',
      localities: ['en-GB'],
      mobilePhoneVerified: false,
      oldIdentityIds: [],
      properties: {},
      disabled: false,
      isArchived: false,
    });
  });

  it('holds exactly the always-present fields for an identity with no optional field', async () => {
    const bare = await t.newIdentity({ identityId: 'bare' });
    const res = await bare.tenant.as(bare.token).get('/bare').expect(200);
    expect(res.body).toStrictEqual({
      identityId: 'bare',
      emailAddresses: [],
      emailAddressVerified: false,
      givenNames: [],
      surnames: [],
      localities: [],
      mobilePhoneVerified: false,
      oldIdentityIds: [],
      properties: {},
      disabled: false,
      isArchived: false,
    });
  });

  it('groups accounts by provider in the tenant order, including providers without accounts', async () => {
    const res = await t.as(TOKENS.ada).get(`${API}/accounts`).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toStrictEqual([
      {
        accountProviderId: 'password',
        displayName: 'User name and password',
        signInUrl: 'https://login.example.org/example/password/link',
        canAddAnotherAccount: false,
        accounts: [
          {
            accountId: 'acc-ada-password',
            issuedUserId: 'ada',
            displayName: 'ada',
            emailAddress: 'ada@example.org',
            isCurrent: false,
          },
        ],
      },
      {
        accountProviderId: 'google',
        displayName: 'Google',
        providerImageUrl: 'https://static.example.org/providers/google.png',
        signInUrl: 'https://login.example.org/example/google/link',
        canAddAnotherAccount: true,
        accounts: [
          {
            accountId: 'acc-ada-google-1',
            issuedUserId: '108234567890123456789',
            accountPrivatePersonalIdentifier: 'g-ppid-ada-1',
            displayName: 'Ada Lovelace',
            emailAddress: 'ada@example.org',
            accountProfileUrl:
              'https://profiles.example.com/108234567890123456789',
            pictureUrl:
              'https://pictures.example.com/108234567890123456789.jpg',
            isCurrent: true,
          },
          {
            accountId: 'acc-ada-google-2',
            issuedUserId: '108234567890123456790',
            displayName: 'Countess of Lovelace',
            emailAddress: 'countess@example.net',
            isCurrent: false,
          },
        ],
      },
      {
        accountProviderId: 'github',
        displayName: 'GitHub',
        providerImageUrl: 'https://static.example.org/providers/github.png',
        signInUrl: 'https://login.example.org/example/github/link',
        canAddAnotherAccount: true,
        accounts: [],
      },
    ]);
  });

  it('marks no account current for a token without an account, or an app token', async () => {
    const own = await t.as(TOKENS.mary).get(`${API}/accounts`).expect(200);
    expect(
      own.body.map((p: { accounts: unknown[] }) => p.accounts),
    ).toStrictEqual([[], [], []]);
    const app = await t.as(TOKENS.crm).get(`${API}/ada/accounts`).expect(200);
    const current = app.body.flatMap(
      (p: { accounts: { isCurrent: boolean }[] }) =>
        p.accounts.map((a) => a.isCurrent),
    );
    expect(current).toStrictEqual([false, false, false]);
  });

  it('lists friends ordered by display name', async () => {
    const res = await t.as(TOKENS.ada).get(`${API}/friends`).expect(200);
    expect(res.body).toStrictEqual([
      {
        identityId: 'charles',
        displayName: 'Charles Babbage',
        smallPictures: ['https://pictures.example.org/charles/s.jpg'],
      },
      { identityId: 'mary', displayName: 'Mary Somerville' },
    ]);
    // The database writes the elements; the bytes are those of JSON.stringify.
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(JSON.stringify(res.body));
  });

  it('makes friendship mutual', async () => {
    const res = await t.as(TOKENS.crm).get(`${API}/mary/friends`).expect(200);
    expect(
      res.body.map((f: { identityId: string }) => f.identityId),
    ).toStrictEqual(['ada', 'charles']);
  });

  it('lists roles by name, and an empty array for none', async () => {
    const ada = await t.as(TOKENS.ada).get(`${API}/roles`).expect(200);
    expect(ada.body).toStrictEqual([{ name: 'admin' }, { name: 'member' }]);
    const mary = await t.as(TOKENS.mary).get(`${API}/roles`).expect(200);
    expect(mary.body).toStrictEqual([]);
  });

  it('accepts the token in the query string and then forbids storing the response', async () => {
    const res = await t
      .http()
      .get(`${API}/roles?access_token=${TOKENS.ada}`)
      .expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toStrictEqual([{ name: 'admin' }, { name: 'member' }]);
  });

  it('answers 404 for an unknown id and for an id of another tenant', async () => {
    await t.newIdentity({ identityId: 'stranger' });
    for (const id of ['does-not-exist', 'stranger']) {
      const res = await t.as(TOKENS.ada).get(`${API}/${id}`).expect(404);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(res.body).toStrictEqual({
        type: 'urn:problem:identity:identity-not-found',
        title: 'Identity not found',
        status: 404,
        detail: `No identity "${id}" is visible to the caller in this tenant.`,
        instance: `${API}/${id}`,
      });
    }
  });

  it('keeps unicode intact', async () => {
    const u1 = await t.newIdentity({
      identityId: 'u1',
      displayName: 'Zoë Ångström 漢字 🚀',
      givenName: 'Zoë',
    });
    const res = await u1.tenant
      .as(u1.token)
      .get('/u1?fields=displayName,givenNames')
      .expect(200);
    expect(res.body).toStrictEqual({
      identityId: 'u1',
      displayName: 'Zoë Ångström 漢字 🚀',
      givenNames: ['Zoë'],
    });
  });
});
