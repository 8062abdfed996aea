import type { IdentityRecord } from './identity.record';

/** An identity calling through an access token (opaque, or a JWT naming it). */
export interface AccessCaller {
  kind: 'access';
  tenantId: string;
  identityId: string;
  /** The account the token was issued for, if any. */
  accountId: string | null;
  /** Holds one of the tenant's admin roles. */
  isAdmin: boolean;
  /**
   * The caller's identity, read in the query that authenticated it (the
   * lookup of an opaque token, or of the identity a JWT names).
   */
  identity: IdentityRecord;
}

/** An application calling through an app token. */
export interface AppCaller {
  kind: 'app';
  tenantId: string;
  appId: string;
  scopes: string[];
}

/** Who is calling: an identity through an access token, or an application. */
export type Principal = AccessCaller | AppCaller;

export const SCOPE_READ = 'identities:read';
export const SCOPE_DELETE = 'identities:delete';
/** Provisioning through SCIM: create, change and delete identities. */
export const SCOPE_PROVISION = 'scim:provision';

/** Recording and removing the accounts of identities of the tenant. */
export const SCOPE_ACCOUNTS_WRITE = 'accounts:write';
/** Making and ending friendships between identities of the tenant. */
export const SCOPE_FRIENDS_WRITE = 'friends:write';

/** The tenant's administration API: its settings, tokens and audit log. */
export const SCOPE_TENANT_ADMIN = 'tenant:admin';

/** Every scope a token may carry, in the order lists name them. */
export const SCOPES = [
  SCOPE_READ,
  SCOPE_DELETE,
  SCOPE_PROVISION,
  SCOPE_ACCOUNTS_WRITE,
  SCOPE_FRIENDS_WRITE,
  SCOPE_TENANT_ADMIN,
] as const;
