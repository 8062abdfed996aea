import { SetMetadata } from '@nestjs/common';

/**
 * Who may call a route. Every route declares one; a route without it is
 * refused (and a test fails).
 * - `public`: no token needed.
 * - `current`: the caller's own identity; access tokens only.
 * - `identity`: GET `{id}`; friends see the public view.
 * - `identity-relations`: accounts, friends, roles of `{id}`.
 * - `identity-delete`: DELETE of `{id}`.
 * - `identity-accounts-write`: recording and removing accounts of `{id}`;
 *   app tokens with accounts:write only.
 * - `identity-friends-write`: making and ending friendships of `{id}`;
 *   app tokens with friends:write only.
 * - `scim`: the SCIM service provider; app tokens with scim:provision only.
 * - `admin`: the tenant's administration API; app tokens with tenant:admin only.
 * - `admin-identity`: reads of `{id}` in the administration API; app tokens
 *   with tenant:admin only, which see every identity of the tenant whole.
 */
export type AccessRule = 'public' | 'current' | 'scim' | 'admin' | IdentityRule;

/** The rules of routes that name an identity in the path. */
export type IdentityRule =
  | 'identity'
  | 'identity-relations'
  | 'identity-delete'
  | 'identity-accounts-write'
  | 'identity-friends-write'
  | 'admin-identity';

export const IDENTITY_RULES: readonly string[] = [
  'identity',
  'identity-relations',
  'identity-delete',
  'identity-accounts-write',
  'identity-friends-write',
  'admin-identity',
];

/** The rules of reads: only they follow a merge to the surviving identity. */
export const READ_RULES: ReadonlySet<string> = new Set([
  'identity',
  'identity-relations',
  'admin-identity',
]);

/** The rules of the administration API: another tenant's admin token finds no route there (404). */
export const ADMIN_RULES: ReadonlySet<string> = new Set([
  'admin',
  'admin-identity',
]);

export const ACCESS_RULE = 'access-rule';
export const Access = (rule: AccessRule) => SetMetadata(ACCESS_RULE, rule);
