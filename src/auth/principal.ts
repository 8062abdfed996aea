import type { IdentityRecord } from '../identity/identity.record';

/** Who is calling: an identity through an access token, or an application. */
export type Principal =
  | {
      kind: 'access';
      tenantId: string;
      identityId: string;
      /** The account the token was issued for, if any. */
      accountId: string | null;
      /** Holds one of the tenant's admin roles. */
      isAdmin: boolean;
      /** The caller's identity, read in the same query as the token. */
      identity: IdentityRecord;
    }
  | { kind: 'app'; tenantId: string; appId: string; scopes: string[] };

export const SCOPE_READ = 'identities:read';
export const SCOPE_DELETE = 'identities:delete';
