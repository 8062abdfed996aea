import { AccountLinkService } from '../../src/accounts/account-link.service';
import { SignInService } from '../../src/auth/sign-in.service';
import type { IssuerConfig } from '../../src/auth/access.repository';
import { FriendsService } from '../../src/friends/friends.service';
import { RolesService } from '../../src/roles/roles.service';
import { GroupsService } from '../../src/scim/groups/groups.service';
import { ScimDiscoveryService } from '../../src/scim/scim-discovery.service';
import { ScimUsersService } from '../../src/scim/scim-users.service';
import { identity, provider, tenantFile } from '../support/factories';
import { Medium, startMedium } from '../support/medium';

const BASE = 'https://id.example/t/scim/v2';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

// SCIM Users, Groups and discovery, just-in-time sign-in and account
// linking, with their repositories on a database of their own.
describe('SCIM and sign-in services (medium)', () => {
  let m: Medium;
  beforeAll(async () => {
    m = await startMedium();
  });
  afterAll(() => m.close());

  it('creates a User, finds it by filter, deactivates it, and deletes it', async () => {
    const file = tenantFile();
    await m.load(file);
    const users = m.get(ScimUsersService);
    const created = await users.create(file.tenant.id, BASE, {
      schemas: [USER],
      userName: 'ada',
      externalId: 'ext-ada',
      displayName: 'Ada',
    });
    const id = created.body.id as string;
    expect(created.location).toBe(`${BASE}/Users/${id}`);
    const found = await users.list(file.tenant.id, BASE, {
      filter: 'userName eq "ADA"',
    });
    expect([
      found.totalResults,
      found.Resources.map((u) => u.id),
    ]).toStrictEqual([1, [id]]);
    const patched = await users.patch(file.tenant.id, BASE, id, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(patched.body.active).toBe(false);
    expect(patched.etag).not.toBe(created.etag);
    await users.delete(file.tenant.id, id);
    await expect(users.get(file.tenant.id, BASE, id)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('makes a Group a role: its members hold it, a rename keeps them', async () => {
    const file = tenantFile({ identities: [identity('ada'), identity('bob')] });
    await m.load(file);
    const groups = m.get(GroupsService);
    const scope = { tenantId: file.tenant.id, base: BASE };
    const group = await groups.createGroup(scope, {
      schemas: [GROUP],
      displayName: 'editors',
      members: [{ value: 'ada' }, { value: 'bob' }],
    });
    const roles = m.get(RolesService);
    expect(
      (await roles.listRoles(file.tenant.id, 'bob', {})).items,
    ).toStrictEqual([{ name: 'editors' }]);
    await groups.patchGroup(scope, group.id as string, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'replace', path: 'displayName', value: 'writers' },
        { op: 'remove', path: 'members[value eq "bob"]' },
      ],
    });
    expect([
      (await roles.listRoles(file.tenant.id, 'ada', {})).items,
      (await roles.listRoles(file.tenant.id, 'bob', {})).items,
    ]).toStrictEqual([[{ name: 'writers' }], []]);
    await groups.deleteGroup(file.tenant.id, group.id as string);
    expect(
      (await roles.listRoles(file.tenant.id, 'ada', {})).items,
    ).toStrictEqual([]);
  });

  it('describes the service provider under the base it is given', () => {
    const config = m.get(ScimDiscoveryService).serviceProviderConfig(BASE);
    expect([config.patch, config.filter, config.meta]).toStrictEqual([
      { supported: true },
      { supported: true, maxResults: expect.any(Number) },
      {
        resourceType: 'ServiceProviderConfig',
        location: `${BASE}/ServiceProviderConfig`,
      },
    ]);
  });

  it('creates the identity a provisioning issuer names once, then moves its lastLogin', async () => {
    const file = tenantFile({ accountProviders: [provider('corp')] });
    await m.load(file);
    const issuer: IssuerConfig = {
      issuer: 'https://issuer.example',
      jwksUri: null,
      audiences: ['api'],
      algorithms: ['RS256'],
      identityClaim: 'sub',
      identityMatch: 'externalId',
      accountClaim: null,
      appIdClaims: [],
      scopeClaim: 'scope',
      provisioning: 'jit',
      accountProvider: 'corp',
    };
    const signIn = m.get(SignInService);
    const claims = { sub: 'emp-7', name: 'Grace Hopper' };
    const first = await signIn.provision(
      file.tenant.id,
      issuer,
      'emp-7',
      claims,
      null,
      new Date('2026-11-01T10:00:00Z'),
    );
    const again = await signIn.provision(
      file.tenant.id,
      issuer,
      'emp-7',
      claims,
      null,
      undefined,
    );
    expect(first!.identity.identityId).toBe(again!.identity.identityId);
    expect([
      first!.identity.externalId,
      first!.identity.displayName,
      first!.identity.lastLogin,
    ]).toStrictEqual([
      'emp-7',
      'Grace Hopper',
      new Date('2026-11-01T10:00:00Z'),
    ]);
    const later = await signIn.signedIn(
      file.tenant.id,
      first!.identity,
      new Date('2026-11-02T10:00:00Z'),
    );
    expect([
      later.lastLogin,
      later.version > first!.identity.version,
    ]).toStrictEqual([new Date('2026-11-02T10:00:00Z'), true]);
  });

  it('sends a link of a provider without link settings back with an error', async () => {
    const file = tenantFile({
      linkReturnUrls: ['https://app.example/linked'],
      accountProviders: [provider('plain')],
      identities: [identity('ada')],
    });
    await m.load(file);
    const links = m.get(AccountLinkService);
    expect(
      await links.start(file.tenant.id, 'plain', 'no-ticket', undefined),
    ).toBe(
      'https://app.example/linked?accountProviderId=plain&result=error&error=provider_error',
    );
    await expect(
      links.callback(file.tenant.id, { state: 'unknown-state' }),
    ).rejects.toMatchObject({ status: 400 });
    // No friend was made on the way: the link touches accounts only.
    expect(
      JSON.parse(
        (await m.get(FriendsService).listFriends(file.tenant.id, 'ada', {}))
          .items,
      ),
    ).toStrictEqual([]);
  });
});
