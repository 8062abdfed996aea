import { identityView } from './access-policy';
import type { IdentityRecord } from '../identity/identity.record';
import { Principal } from '../identity/principal';

const access = (identityId: string, isAdmin = false): Principal => ({
  kind: 'access',
  tenantId: 't',
  identityId,
  accountId: null,
  isAdmin,
  // The policy decides on ids and roles, never on the identity's fields.
  identity: { identityId } as IdentityRecord,
});
const app = (scopes: string[]): Principal => ({
  kind: 'app',
  tenantId: 't',
  appId: 'a',
  scopes,
});

describe('identityView', () => {
  it.each([
    ['self', access('me'), false, 'full', 'full'],
    ['admin', access('boss', true), false, 'full', 'full'],
    ['friend', access('pal'), true, 'public', 'none'],
    ['stranger', access('other'), false, 'none', 'none'],
    [
      'app with identities:read',
      app(['identities:read']),
      false,
      'full',
      'full',
    ],
    [
      'app with identities:delete only',
      app(['identities:delete']),
      false,
      'forbidden',
      'forbidden',
    ],
    ['app without scopes', app([]), false, 'forbidden', 'forbidden'],
  ] as const)('%s sees %s', (_who, caller, isFriend, identity, relations) => {
    const target = { identityId: 'me', isFriend };
    expect(identityView(caller, target, 'identity')).toBe(identity);
    expect(identityView(caller, target, 'identity-relations')).toBe(relations);
  });
});

describe('identityView for writing accounts and friendships', () => {
  it.each([
    ['self', access('me'), 'forbidden'],
    ['admin', access('boss', true), 'forbidden'],
    ['friend', access('pal'), 'forbidden'],
    ['app with friends:write', app(['friends:write']), 'full'],
    [
      'app with every other scope',
      app(['identities:read', 'identities:delete', 'scim:provision']),
      'forbidden',
    ],
    ['app with accounts:write', app(['accounts:write']), 'forbidden'],
  ] as const)('%s: %s', (_who, caller, view) => {
    expect(
      identityView(
        caller,
        { identityId: 'me', isFriend: true },
        'identity-friends-write',
      ),
    ).toBe(view);
  });

  it.each([
    ['self', access('me'), 'forbidden'],
    ['admin', access('boss', true), 'forbidden'],
    ['app with accounts:write', app(['accounts:write']), 'full'],
    ['app with friends:write', app(['friends:write']), 'forbidden'],
  ] as const)('accounts, %s: %s', (_who, caller, view) => {
    expect(
      identityView(
        caller,
        { identityId: 'me', isFriend: false },
        'identity-accounts-write',
      ),
    ).toBe(view);
  });
});

describe('identityView in the administration API', () => {
  it.each([
    ['self', access('me'), 'forbidden'],
    ['admin', access('boss', true), 'forbidden'],
    ['friend', access('pal'), 'forbidden'],
    ['app with tenant:admin', app(['tenant:admin']), 'full'],
    [
      'app with every other scope',
      app([
        'identities:read',
        'identities:delete',
        'scim:provision',
        'accounts:write',
        'friends:write',
      ]),
      'forbidden',
    ],
  ] as const)('%s: %s', (_who, caller, view) => {
    expect(
      identityView(
        caller,
        { identityId: 'me', isFriend: true },
        'admin-identity',
      ),
    ).toBe(view);
  });
});
