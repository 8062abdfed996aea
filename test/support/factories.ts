import type { Insertable } from 'kysely';
import { randomBytes } from 'node:crypto';
import { Database } from '../../src/database/database';
import { builder } from '../../src/database/sql';
import type { DB } from '../../src/generated/kysely/tables';
import type {
  AccountProviderEntry as ProviderEntryClass,
  AccountProviderSettings,
  IdentityEntry as IdentityEntryClass,
  TenantEntry as TenantEntryClass,
  TenantFile as TenantFileClass,
  TokenEntry as TokenEntryClass,
} from '../../src/tenants/tenant-file.dto';

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

/** A class's fields as a plain object type: what a test writes, spread and copies. */
type Plain<T> = { [K in keyof T]: T[K] };

/** The entries of a tenant file, as the import format types them. */
export type AccountProviderEntry = Plain<ProviderEntryClass>;
export type IdentityEntry = Plain<IdentityEntryClass>;
export type TenantEntry = Plain<TenantEntryClass>;
export type TokenEntry = Plain<TokenEntryClass>;

/** A token entry: its secret, and what it is a token of. */
export type Token = TokenEntry;

/** A tenant file with its lists of identities and tokens always there. */
export interface TenantFile extends Plain<
  Omit<TenantFileClass, 'tenant' | 'identities' | 'tokens'>
> {
  tenant: TenantEntry;
  identities: IdentityEntry[];
  tokens: TokenEntry[];
}

/** The parts of a tenant file a test cares about: its tenant's fields and its lists. */
export type TenantParts = Partial<TenantEntry> &
  Partial<Omit<TenantFile, 'tenant'>>;

export function tenantFile(parts: TenantParts = {}): TenantFile {
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
  fields: Omit<IdentityEntry, 'identityId'> = {},
): IdentityEntry {
  return { identityId, ...fields };
}

/** An account provider entry, signing in at login.example.org unless told. */
export function provider(
  accountProviderId: string,
  fields: Partial<AccountProviderSettings> = {},
): AccountProviderEntry {
  return {
    accountProviderId,
    signInUrl: `https://login.example.org/${accountProviderId}`,
    ...fields,
  };
}

/** A token entry with a secret of its own: an access token of `identityId`, or an app's. */
export function token(
  of:
    | (Pick<TokenEntry, 'accountId' | 'expiresAt'> & { identityId: string })
    | (Pick<TokenEntry, 'scopes' | 'expiresAt'> & { appId: string }),
): TokenEntry {
  const secret = `factory-token-${RUN}-${String(++secrets).padStart(6, '0')}`;
  return 'identityId' in of
    ? { token: secret, type: 'access', ...of }
    : { token: secret, type: 'app', ...of };
}

/**
 * Rows written straight into a table, for a state no request or import
 * makes (one the past left): each typed by the table's columns, as
 * prisma/schema.prisma generates them (src/generated/kysely/tables.ts).
 */
export async function insertRows<T extends keyof DB>(
  database: Database,
  table: T,
  rows: Insertable<DB[T]>[],
): Promise<void> {
  const insert = builder
    .insertInto(table)
    .values(rows as never)
    .compile();
  await database.prisma.$executeRawUnsafe(insert.sql, ...insert.parameters);
}
