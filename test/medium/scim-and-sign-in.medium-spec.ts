import { AccountLinkRepository } from '../../src/accounts/account-link.repository';
import { AccountLinkService } from '../../src/accounts/account-link.service';
import { AccountsRepository } from '../../src/accounts/accounts.repository';
import { AccountsService } from '../../src/accounts/accounts.service';
import { LinkClient } from '../../src/accounts/link-client';
import { LinkTickets } from '../../src/accounts/link-tickets';
import { AccessRepository } from '../../src/auth/access.repository';
import type { IssuerConfig } from '../../src/auth/access.repository';
import { SignInRepository } from '../../src/auth/sign-in.repository';
import { SignInService } from '../../src/auth/sign-in.service';
import { SecretBox } from '../../src/common/secrets/secret-box';
import { FriendsRepository } from '../../src/friends/friends.repository';
import { FriendsService } from '../../src/friends/friends.service';
import { IdentityRepository } from '../../src/identity/identity.repository';
import { IdentityService } from '../../src/identity/identity.service';
import { IdentityTags } from '../../src/identity/identity-tags';
import { RolesRepository } from '../../src/roles/roles.repository';
import { RolesService } from '../../src/roles/roles.service';
import { GroupsRepository } from '../../src/scim/groups/groups.repository';
import { GroupsService } from '../../src/scim/groups/groups.service';
import { ScimDiscoveryService } from '../../src/scim/scim-discovery.service';
import { ScimUsersRepository } from '../../src/scim/scim-users.repository';
import { ScimUsersService } from '../../src/scim/scim-users.service';
import { identity, provider } from '../support/factories';
import { useMediumService } from '../support/medium';
import { wholeJson } from '../support/lists';

const BASE = 'https://id.example/t/scim/v2';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

// SCIM Users, Groups and discovery, just-in-time sign-in and account
// linking, each built from the providers it names, on the database of this
// file.

describe(ScimUsersService.name, () => {
  const m = useMediumService(ScimUsersService, {
    real: [
      ScimUsersRepository,
      IdentityRepository,
      IdentityService,
      IdentityTags,
    ],
  });

  it('creates a User, finds it by filter, deactivates it, and deletes it', async () => {
    const file = await m.newTenant();
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
});

describe(GroupsService.name, () => {
  // RolesService reads what a Group made of its members' roles.
  const m = useMediumService(GroupsService, {
    real: [GroupsRepository, IdentityTags, IdentityRepository],
    readers: [RolesService, RolesRepository],
  });

  it('makes a Group a role: its members hold it, a rename keeps them', async () => {
    const file = await m.newTenant({
      identities: [identity('ada'), identity('bob')],
    });
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
});

describe(ScimDiscoveryService.name, () => {
  const m = useMediumService(ScimDiscoveryService);

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
});

describe(SignInService.name, () => {
  const m = useMediumService(SignInService, {
    real: [AccessRepository, SignInRepository],
  });

  it('creates the identity a provisioning issuer names once, then moves its lastLogin', async () => {
    const file = await m.newTenant({ accountProviders: [provider('corp')] });
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
});

describe(AccountLinkService.name, () => {
  // No provider is reached; FriendsService reads that nothing else moved.
  const m = useMediumService(AccountLinkService, {
    real: [
      AccountLinkRepository,
      LinkTickets,
      AccountsService,
      AccountsRepository,
      SecretBox,
    ],
    mock: [LinkClient],
    readers: [FriendsService, FriendsRepository],
  });

  it('sends a link of a provider without link settings back with an error', async () => {
    const file = await m.newTenant({
      linkReturnUrls: ['https://app.example/linked'],
      accountProviders: [provider('plain')],
      identities: [identity('ada')],
    });
    const links = m.get(AccountLinkService);
    expect(
      await links.start(file.tenant.id, 'plain', 'no-ticket', undefined),
    ).toBe(
      'https://app.example/linked?accountProviderId=plain&result=error&error=provider_error',
    );
    await expect(
      links.callback(file.tenant.id, { state: 'unknown-state' }),
    ).rejects.toMatchObject({ status: 400 });
    const client = jest.mocked(m.get(LinkClient));
    expect([
      client.authorizationUrl.mock.calls,
      client.account.mock.calls,
    ]).toStrictEqual([[], []]);
    // No friend was made on the way: the link touches accounts only.
    expect(
      JSON.parse(
        await wholeJson(
          (await m.get(FriendsService).listFriends(file.tenant.id, 'ada', {}))
            .items,
        ),
      ),
    ).toStrictEqual([]);
  });
});
