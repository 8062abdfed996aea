import { randomBytes } from 'node:crypto';

/**
 * Tenant files for tests, from the parts a test cares about: every other
 * part is the smallest the import format accepts. Each tenant gets an id
 * of its own (`t1-…`, `t2-…`) unless one is given, a name from its id unless
 * one is given (for tests that read it back), and each token a secret of
 * its own, so that tests sharing a database or a Redis never meet: the
 * suffix is drawn for each test file, which restarts the counters.
 */

const RUN = randomBytes(4).toString('hex');
let tenants = 0;
let secrets = 0;

/** A token entry: its secret, and what it is a token of. */
export type Token = Record<string, unknown> & { token: string };

export interface TenantFile {
  tenant: {
    id: string;
    name: string;
    adminRoles?: string[];
    linkReturnUrls?: string[];
    tokenIssuers?: Record<string, unknown>[];
  };
  accountProviders?: Record<string, unknown>[];
  identities: Record<string, unknown>[];
  tokens: Token[];
}

export function tenantFile(
  parts: {
    id?: string;
    name?: string;
    adminRoles?: string[];
    linkReturnUrls?: string[];
    tokenIssuers?: Record<string, unknown>[];
    accountProviders?: Record<string, unknown>[];
    identities?: Record<string, unknown>[];
    tokens?: Token[];
  } = {},
): TenantFile {
  const id = parts.id ?? `t${++tenants}-${RUN}`;
  return {
    tenant: {
      id,
      name: parts.name ?? `Tenant ${id}`,
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
): Token {
  const secret = `factory-token-${RUN}-${String(++secrets).padStart(6, '0')}`;
  return 'identityId' in of
    ? { token: secret, type: 'access', ...of }
    : { token: secret, type: 'app', ...of };
}
