import { identity, tenantFile, token } from './support/factories';
import { AUDIENCE, LocalIssuer, useLocalIssuer } from './support/local-issuer';
import { useTestApp } from './support/test-app';

const SCIM = token({ appId: 'directory', scopes: ['scim:provision'] });
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/**
 * Names that look like, or fold under some Unicode mapping to, an ASCII
 * name of the tenant: each must stay a name of its own. The first two are
 * what lower() made equal to the ASCII name.
 */
const LOOKALIKES: [string, string, string][] = [
  ['vİctim', 'victim', 'U+0130, whose lower case is "i" (plus a dot)'],
  ['\u212Aim', 'kim', 'U+212A Kelvin sign: lower case "k", NFC "K"'],
  ['vıctim', 'victim', 'U+0131 dotless i, upper case "I"'],
  ['vi\u0307ctim', 'victim', 'i and U+0307, what "İ".toLowerCase() gives'],
  ['ｖｉｃｔｉｍ', 'victim', 'fullwidth letters, NFKC "victim"'],
  [
    'ſtaﬀ',
    'staff',
    'long s (upper case "S") and the ff ligature, NFKC "staff"',
  ],
];
/** The ASCII names, in other cases: these are the same key. */
const SAME_KEY: [string, string][] = [
  ['Victim', 'victim'],
  ['VICTIM', 'victim'],
  ['KIM', 'kim'],
  ['Staff', 'staff'],
];
/** The tenant's identities: each has its id as userName and in its address. */
const ASCII_NAMES = ['victim', 'kim', 'staff'];

const tenant = (idp: LocalIssuer, id: string, issuer: object) =>
  tenantFile({
    id,
    tokenIssuers: [
      { issuer: idp.issuer(id), audiences: [AUDIENCE], ...issuer },
    ],
    identities: ASCII_NAMES.map((name) =>
      identity(name, {
        userName: name,
        emailAddress: `${name}@example.org`,
        emailAddressVerified: true,
      }),
    ),
    // A directory's token, for the tenant the SCIM tests provision.
    tokens: id === 'cm-username' ? [SCIM] : [],
  });

describe('a key (userName, verified e-mail address, Group name) matches only its own ASCII letters in any case', () => {
  const idp = useLocalIssuer();
  const t = useTestApp(() => {
    const tenants = [
      tenant(idp, 'cm-username', { identityMatch: 'userName' }),
      tenant(idp, 'cm-email', {
        identityMatch: 'verifiedEmail',
        identityClaim: 'email',
      }),
      tenant(idp, 'cm-jit', { identityMatch: 'userName', provisioning: 'jit' }),
      tenant(idp, 'cm-jit-email', {
        identityMatch: 'verifiedEmail',
        identityClaim: 'email',
        provisioning: 'jit',
      }),
    ];
    // The local issuer is on loopback, which these tenants may reach.
    return {
      tenants,
      config: {
        egressPrivateNetworkTenants: tenants.map((f) => f.tenant.id),
      },
    };
  });

  const me = async (realm: string, claims: object) =>
    t
      .as(await idp.sign({ sub: 'idp-subject', ...claims }, { realm }))
      .get(`/${realm}/api/identity/v1`);
  const byName = (realm: string, sub: string) => me(realm, { sub });
  const byEmail = (realm: string, name: string) =>
    me(realm, { email: `${name}@example.org`, email_verified: true });
  const scim = (method: 'get' | 'post', path: string, body?: object) =>
    t
      .http()
      [method](`/cm-username/scim/v2${path}`)
      .set('Authorization', `Bearer ${SCIM.token}`)
      .set('Content-Type', 'application/scim+json')
      .send(body && JSON.stringify(body));
  const users = async (filter: string) =>
    (
      await scim('get', `/Users?filter=${encodeURIComponent(filter)}`).expect(
        200,
      )
    ).body.Resources.map((u: { userName: string }) => u.userName);

  it('userName: a JWT naming a look-alike is no one (401); the ASCII name in any case is its identity', async () => {
    for (const [name, , why] of LOOKALIKES)
      expect([why, (await byName('cm-username', name)).status]).toStrictEqual([
        why,
        401,
      ]);
    for (const [name, ascii] of SAME_KEY) {
      const res = await byName('cm-username', name);
      expect([name, res.status, res.body.identityId]).toStrictEqual([
        name,
        200,
        ascii,
      ]);
    }
  });

  it('verifiedEmail: a JWT whose verified address is a look-alike is no one (401); the address in any case is its identity', async () => {
    for (const [name, , why] of LOOKALIKES)
      expect([why, (await byEmail('cm-email', name)).status]).toStrictEqual([
        why,
        401,
      ]);
    for (const [name, ascii] of SAME_KEY) {
      const res = await byEmail('cm-email', name);
      expect([name, res.status, res.body.identityId]).toStrictEqual([
        name,
        200,
        ascii,
      ]);
    }
  });

  it('jit with userName: a look-alike gets an identity of its own, under its own userName', async () => {
    for (const [name, ascii, why] of LOOKALIKES) {
      const res = await byName('cm-jit', name);
      expect([why, res.status, res.body.userName]).toStrictEqual([
        why,
        200,
        name,
      ]);
      expect(res.body.identityId).not.toBe(ascii);
      expect((await byName('cm-jit', name)).body.identityId).toBe(
        res.body.identityId,
      );
    }
    for (const [name, ascii] of SAME_KEY)
      expect((await byName('cm-jit', name)).body.identityId).toBe(ascii);
  });

  it('jit with verifiedEmail: a look-alike address gets an identity of its own, holding that address', async () => {
    for (const [name, ascii, why] of LOOKALIKES) {
      const res = await byEmail('cm-jit-email', name);
      expect([why, res.status, res.body.emailAddress]).toStrictEqual([
        why,
        200,
        `${name}@example.org`,
      ]);
      expect(res.body.identityId).not.toBe(ascii);
      expect((await byEmail('cm-jit-email', name)).body.identityId).toBe(
        res.body.identityId,
      );
    }
    for (const [name, ascii] of SAME_KEY)
      expect((await byEmail('cm-jit-email', name)).body.identityId).toBe(ascii);
  });

  it('SCIM: a look-alike userName is free (201) and its filter finds only it; the ASCII name in any case is taken (409) and found', async () => {
    for (const [name, ascii, why] of LOOKALIKES) {
      const created = await scim('post', '/Users', {
        schemas: [USER],
        userName: name,
      });
      expect([why, created.status, created.body.userName]).toStrictEqual([
        why,
        201,
        name,
      ]);
      expect([why, await users(`userName eq "${name}"`)]).toStrictEqual([
        why,
        [name],
      ]);
      expect(await users(`userName eq "${ascii}"`)).toStrictEqual([ascii]);
    }
    for (const [name, ascii] of SAME_KEY) {
      const taken = await scim('post', '/Users', {
        schemas: [USER],
        userName: name,
      });
      expect([name, taken.status, taken.body.scimType]).toStrictEqual([
        name,
        409,
        'uniqueness',
      ]);
      expect(await users(`userName eq "${name}"`)).toStrictEqual([ascii]);
    }
  });

  it('SCIM Groups: a look-alike displayName is a Group of its own, and its filter finds only it', async () => {
    const displayNames = async (filter: string) =>
      (
        await scim(
          'get',
          `/Groups?filter=${encodeURIComponent(filter)}`,
        ).expect(200)
      ).body.Resources.map((g: { displayName: string }) => g.displayName);
    await scim('post', '/Groups', {
      schemas: [GROUP],
      displayName: 'admins',
    }).expect(201);
    const lookalike = await scim('post', '/Groups', {
      schemas: [GROUP],
      displayName: 'admİns',
    });
    expect([lookalike.status, lookalike.body.displayName]).toStrictEqual([
      201,
      'admİns',
    ]);
    expect(await displayNames('displayName eq "admİns"')).toStrictEqual([
      'admİns',
    ]);
    expect(await displayNames('displayName eq "ADMINS"')).toStrictEqual([
      'admins',
    ]);
    const taken = await scim('post', '/Groups', {
      schemas: [GROUP],
      displayName: 'Admins',
    });
    expect([taken.status, taken.body.scimType]).toStrictEqual([
      409,
      'uniqueness',
    ]);
  });
});
