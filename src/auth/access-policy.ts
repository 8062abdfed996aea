import { IdentityRule } from '../common/http/access.decorator';
import {
  Principal,
  SCOPE_ACCOUNTS_WRITE,
  SCOPE_DELETE,
  SCOPE_FRIENDS_WRITE,
  SCOPE_PROVISION,
  SCOPE_READ,
  SCOPE_TENANT_ADMIN,
} from '../identity/principal';

/** What the caller may do with an identity: everything, see its public part, or nothing. */
export type View = 'full' | 'public' | 'none';

export interface TargetFacts {
  identityId: string;
  /** The target lists the caller as a friend. */
  isFriend: boolean;
}

/**
 * The authorization table of decisions.md as one function. An app token
 * without the scope is refused outright (403); for everyone else an identity
 * they may not read looks exactly like one that does not exist. Only self,
 * admins and apps with `identities:delete` delete; a friend, who can see
 * the identity, is refused (403). Accounts and friendships of `{id}` are
 * written by app tokens with accounts:write or friends:write alone (403 for
 * access tokens, an admin's included). The administration API's identities
 * are for its own tokens alone, which see each whole (mayAdminister).
 */
export function identityView(
  caller: Principal,
  target: TargetFacts,
  rule: IdentityRule,
): View | 'forbidden' {
  if (rule === 'admin-identity')
    return mayAdminister(caller) ? 'full' : 'forbidden';
  if (caller.kind === 'app')
    return caller.scopes.includes(scopeOf(rule)) ? 'full' : 'forbidden';
  // Accounts and friendships are recorded by applications, not by the
  // users themselves through these routes.
  if (rule === 'identity-accounts-write' || rule === 'identity-friends-write')
    return 'forbidden';
  if (caller.identityId === target.identityId || caller.isAdmin) return 'full';
  if (!target.isFriend) return 'none';
  return {
    identity: 'public',
    'identity-relations': 'none',
    'identity-delete': 'forbidden',
  }[rule] as View | 'forbidden';
}

/** The scope an app token needs for an identity route of `rule`. */
export function scopeOf(rule: IdentityRule): string {
  return {
    identity: SCOPE_READ,
    'identity-relations': SCOPE_READ,
    'identity-delete': SCOPE_DELETE,
    'identity-accounts-write': SCOPE_ACCOUNTS_WRITE,
    'identity-friends-write': SCOPE_FRIENDS_WRITE,
    'admin-identity': SCOPE_TENANT_ADMIN,
  }[rule];
}

/**
 * Whether the caller may use the SCIM service provider: an app token with
 * scim:provision. A user's access token never may, not even an admin's:
 * provisioning is a directory's job, done with a token of its own.
 */
export function mayProvision(caller: Principal): boolean {
  return caller.kind === 'app' && caller.scopes.includes(SCOPE_PROVISION);
}

/**
 * Whether the caller may use the tenant's administration API: an app token
 * with tenant:admin. No access token may, not even an admin's: the admin
 * roles say who administers identities, not the tenant's own settings.
 */
export function mayAdminister(caller: Principal): boolean {
  return caller.kind === 'app' && caller.scopes.includes(SCOPE_TENANT_ADMIN);
}
