/**
 * Tenant files for tests, from the parts a test cares about: every other
 * part is the smallest the import format accepts. Each tenant gets an id
 * of its own (`t1`, `t2`, …) unless one is given, and each token a secret
 * of its own, so that tests sharing a database never meet.
 */

let tenants = 0;
let secrets = 0;

export interface TenantFile {
  tenant: {
    id: string;
    name: string;
    adminRoles?: string[];
    linkReturnUrls?: string[];
    tokenIssuers?: Record<string, unknown>[];
  };
  accountProviders?: Record<string, unknown>[];
  identities?: Record<string, unknown>[];
  tokens?: Record<string, unknown>[];
}

export function tenantFile(
  parts: {
    id?: string;
    adminRoles?: string[];
    linkReturnUrls?: string[];
    tokenIssuers?: Record<string, unknown>[];
    accountProviders?: Record<string, unknown>[];
    identities?: Record<string, unknown>[];
    tokens?: Record<string, unknown>[];
  } = {},
): TenantFile {
  const id = parts.id ?? `t${++tenants}-${process.pid}`;
  return {
    tenant: {
      id,
      name: `Tenant ${id}`,
      ...(parts.adminRoles && { adminRoles: parts.adminRoles }),
      ...(parts.linkReturnUrls && { linkReturnUrls: parts.linkReturnUrls }),
      ...(parts.tokenIssuers && { tokenIssuers: parts.tokenIssuers }),
    },
    ...(parts.accountProviders && { accountProviders: parts.accountProviders }),
    identities: parts.identities ?? [],
    tokens: parts.tokens ?? [],
  };
}

/** An identity entry: `identityId` and the fields given. */
export function identity(
  identityId: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return { identityId, ...fields };
}

/** An account provider entry. */
export function provider(
  accountProviderId: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    accountProviderId,
    signInUrl: `https://login.example.org/${accountProviderId}`,
    ...fields,
  };
}

/** A token entry with a secret of its own: an access token of `identityId`, or an app's. */
export function token(
  of:
    | { identityId: string; accountId?: string }
    | { appId: string; scopes?: string[] },
): Record<string, unknown> & { token: string } {
  const secret = `factory-token-${process.pid}-${String(++secrets).padStart(6, '0')}`;
  return 'identityId' in of
    ? { token: secret, type: 'access', ...of }
    : { token: secret, type: 'app', ...of };
}
