import { AuthService } from '../../src/auth/auth.service';
import type { AccessCaller } from '../../src/identity/principal';
import { IdentityService } from '../../src/identity/identity.service';
import { EventsService } from '../../src/events/events.service';
import { FriendsService } from '../../src/friends/friends.service';
import { RolesService } from '../../src/roles/roles.service';
import { identity, tenantFile, token } from '../support/factories';
import { Medium, startMedium } from '../support/medium';

// IdentityService, AuthService, FriendsService, RolesService and
// EventsService with their repositories on a database of their own.
describe('identity services (medium)', () => {
  let m: Medium;
  beforeAll(async () => {
    m = await startMedium();
  });
  afterAll(() => m.close());

  const signedIn = async (tenantId: string, secret: string) =>
    (await m.get(AuthService).authenticate(tenantId, secret)) as AccessCaller;

  it('authenticates an access token as its identity, read with it', async () => {
    const ada = token({ identityId: 'ada' });
    const file = tenantFile({
      adminRoles: ['admin'],
      identities: [
        identity('ada', { displayName: 'Ada', roles: ['admin'] }),
        identity('bob'),
      ],
      tokens: [ada],
    });
    await m.load(file);
    const caller = await signedIn(file.tenant.id, ada.token);
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

  it('updates the current identity, with a new version and an event', async () => {
    const ada = token({ identityId: 'ada' });
    const file = tenantFile({
      identities: [identity('ada', { displayName: 'Ada' })],
      tokens: [ada],
    });
    await m.load(file);
    const caller = await signedIn(file.tenant.id, ada.token);
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

  it('makes friends both ways, lists them in order, and ends the friendship', async () => {
    const file = tenantFile({
      identities: [
        identity('ada'),
        identity('bob', { displayName: 'Bob' }),
        identity('cy', { displayName: 'Anne' }),
      ],
    });
    await m.load(file);
    const friends = m.get(FriendsService);
    await friends.addFriend(file.tenant.id, 'ada', 'bob');
    await friends.addFriend(file.tenant.id, 'ada', 'cy');
    expect(
      JSON.parse((await friends.listFriends(file.tenant.id, 'ada', {})).items),
    ).toStrictEqual([
      { identityId: 'cy', displayName: 'Anne' },
      { identityId: 'bob', displayName: 'Bob' },
    ]);
    expect(
      JSON.parse((await friends.listFriends(file.tenant.id, 'bob', {})).items),
    ).toStrictEqual([{ identityId: 'ada' }]);
    await friends.removeFriend(file.tenant.id, 'bob', 'ada');
    expect(
      JSON.parse((await friends.listFriends(file.tenant.id, 'ada', {})).items),
    ).toStrictEqual([{ identityId: 'cy', displayName: 'Anne' }]);
    await expect(
      friends.addFriend(file.tenant.id, 'ada', 'nobody'),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('lists roles by name, a page at a time', async () => {
    const file = tenantFile({
      identities: [identity('ada', { roles: ['zeta', 'alpha', 'mid'] })],
    });
    await m.load(file);
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

  it('merges one identity into another: accounts, friends and roles move', async () => {
    const file = tenantFile({
      identities: [
        identity('ada', { roles: ['a'] }),
        identity('old', { roles: ['b'], friends: ['cy'] }),
        identity('cy', { friends: ['old'] }),
      ],
    });
    await m.load(file);
    const merged = await m
      .get(IdentityService)
      .mergeIdentities(file.tenant.id, 'ada', 'old');
    expect(merged.oldIdentityIds).toStrictEqual(['old']);
    expect(
      (await m.get(RolesService).listRoles(file.tenant.id, 'ada', {})).items,
    ).toStrictEqual([{ name: 'a' }, { name: 'b' }]);
    expect(
      JSON.parse(
        (await m.get(FriendsService).listFriends(file.tenant.id, 'cy', {}))
          .items,
      ),
    ).toStrictEqual([{ identityId: 'ada' }]);
  });
});
