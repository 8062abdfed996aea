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
    }
  | { kind: 'app'; tenantId: string; appId: string; scopes: string[] };

export const SCOPE_READ = 'identities:read';
export const SCOPE_DELETE = 'identities:delete';
