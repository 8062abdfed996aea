import { AccessRepository } from '../../src/auth/access.repository';
import { AuthService } from '../../src/auth/auth.service';
import { JwtVerifier } from '../../src/auth/jwt-verifier';
import { EventsRepository } from '../../src/events/events.repository';
import { EventsService } from '../../src/events/events.service';
import { FriendsRepository } from '../../src/friends/friends.repository';
import { FriendsService } from '../../src/friends/friends.service';
import { IdentityRepository } from '../../src/identity/identity.repository';
import { IdentityService } from '../../src/identity/identity.service';
import { IdentityTags } from '../../src/identity/identity-tags';
import type { AccessCaller } from '../../src/identity/principal';
import { RolesRepository } from '../../src/roles/roles.repository';
import { RolesService } from '../../src/roles/roles.service';
import { identity, token } from '../support/factories';
import { MediumService, useMediumService } from '../support/medium';
import { wholeJson } from '../support/lists';

// The services of identities, their friends, roles and changes, each built
// from the providers it names, on the database of this file.

/** The caller an access token makes, as AuthService answers for it. */
const signedIn = async (m: MediumService, tenantId: string, secret: string) =>
  (await m.get(AuthService).authenticate(tenantId, secret)) as AccessCaller;

describe(AuthService.name, () => {
  const m = useMediumService(AuthService, {
    real: [AccessRepository],
    mock: [JwtVerifier],
  });

  it('authenticates an access token as its identity, read with it', async () => {
    const ada = token({ identityId: 'ada' });
    const file = await m.newTenant({
      adminRoles: ['admin'],
      identities: [
        identity('ada', { displayName: 'Ada', roles: ['admin'] }),
        identity('bob'),
      ],
      tokens: [ada],
    });
    const caller = await signedIn(m, file.tenant.id, ada.token);
    expect({
      tenantId: caller.tenantId,
      identityId: caller.identityId,
      isAdmin: caller.isAdmin,
      displayName: caller.identity.displayName,
    }).toStrictEqual({
      tenantId: file.tenant.id,
      identityId: 'ada',
      isAdmin: true,
      displayName: 'Ada',
    });
  });
});

describe(IdentityService.name, () => {
  // AuthService makes the caller; the others read what a change left.
  const m = useMediumService(IdentityService, {
    real: [IdentityRepository, IdentityTags],
    readers: [
      AuthService,
      AccessRepository,
      EventsService,
      EventsRepository,
      FriendsService,
      FriendsRepository,
      RolesService,
      RolesRepository,
    ],
    mock: [JwtVerifier],
  });

  it('updates the current identity, with a new version and an event', async () => {
    const ada = token({ identityId: 'ada' });
    const file = await m.newTenant({
      identities: [identity('ada', { displayName: 'Ada' })],
      tokens: [ada],
    });
    const caller = await signedIn(m, file.tenant.id, ada.token);
    const before = await m.get(IdentityService).currentIdentity(caller);
    const after = await m
      .get(IdentityService)
      .updateCurrentIdentity(caller, { displayName: 'Countess' });
    expect([before.body.displayName, after.body.displayName]).toStrictEqual([
      'Ada',
      'Countess',
    ]);
    expect(after.etag).not.toBe(before.etag);
    const events = await m.get(EventsService).listEvents(file.tenant.id, 0n);
    expect(events.map((e) => [e.identityId, e.type, e.fields])).toStrictEqual([
      ['ada', 'imported', ['displayName']],
      ['ada', 'updated', ['displayName']],
    ]);
  });

  it('merges one identity into another: accounts, friends and roles move', async () => {
    const file = await m.newTenant({
      identities: [
        identity('ada', { roles: ['a'] }),
        identity('old', { roles: ['b'], friends: ['cy'] }),
        identity('cy', { friends: ['old'] }),
      ],
    });
    const merged = await m
      .get(IdentityService)
      .mergeIdentities(file.tenant.id, 'ada', 'old');
    expect(merged.oldIdentityIds).toStrictEqual(['old']);
    expect(
      (await m.get(RolesService).listRoles(file.tenant.id, 'ada', {})).items,
    ).toStrictEqual([{ name: 'a' }, { name: 'b' }]);
    expect(
      JSON.parse(
        await wholeJson(
          (await m.get(FriendsService).listFriends(file.tenant.id, 'cy', {}))
            .items,
        ),
      ),
    ).toStrictEqual([{ identityId: 'ada' }]);
  });
});

describe(FriendsService.name, () => {
  const m = useMediumService(FriendsService, { real: [FriendsRepository] });

  it('makes friends both ways, lists them in order, and ends the friendship', async () => {
    const file = await m.newTenant({
      identities: [
        identity('ada'),
        identity('bob', { displayName: 'Bob' }),
        identity('cy', { displayName: 'Anne' }),
      ],
    });
    const friends = m.get(FriendsService);
    await friends.addFriend(file.tenant.id, 'ada', 'bob');
    await friends.addFriend(file.tenant.id, 'ada', 'cy');
    expect(
      JSON.parse(
        await wholeJson(
          (await friends.listFriends(file.tenant.id, 'ada', {})).items,
        ),
      ),
    ).toStrictEqual([
      { identityId: 'cy', displayName: 'Anne' },
      { identityId: 'bob', displayName: 'Bob' },
    ]);
    expect(
      JSON.parse(
        await wholeJson(
          (await friends.listFriends(file.tenant.id, 'bob', {})).items,
        ),
      ),
    ).toStrictEqual([{ identityId: 'ada' }]);
    await friends.removeFriend(file.tenant.id, 'bob', 'ada');
    expect(
      JSON.parse(
        await wholeJson(
          (await friends.listFriends(file.tenant.id, 'ada', {})).items,
        ),
      ),
    ).toStrictEqual([{ identityId: 'cy', displayName: 'Anne' }]);
    await expect(
      friends.addFriend(file.tenant.id, 'ada', 'nobody'),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe(RolesService.name, () => {
  const m = useMediumService(RolesService, { real: [RolesRepository] });

  it('lists roles by name, a page at a time', async () => {
    const file = await m.newTenant({
      identities: [identity('ada', { roles: ['zeta', 'alpha', 'mid'] })],
    });
    const roles = m.get(RolesService);
    const first = await roles.listRoles(file.tenant.id, 'ada', { limit: 2 });
    expect(first).toStrictEqual({
      items: [{ name: 'alpha' }, { name: 'mid' }],
      next: { limit: 2, after: ['mid'] },
    });
    expect(
      await roles.listRoles(file.tenant.id, 'ada', first.next!),
    ).toStrictEqual({ items: [{ name: 'zeta' }], next: undefined });
  });
});
