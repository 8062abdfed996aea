import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Prisma } from '../generated/prisma/client';
import { IDENTITY_RECORD_COLUMNS } from '../identity/identity.repository';
import type { IdentityRecord } from '../identity/identity.record';
import { extensionFilters } from './scim-fields';
import { filterToSql, type FilterAttributes } from './scim-filter';
import { IDENTITY_EXTENSION } from './scim-schemas';
import type { ScimAccount, ScimUserRow } from './scim-user.mapper';

/** What a Users filter may name (docs/scim.md), over identity `i`. */
export const USER_FILTER_ATTRIBUTES: FilterAttributes = {
  id: { sql: Prisma.sql`i.identity_id`, kind: 'text', caseExact: true },
  externalid: { sql: Prisma.sql`i.external_id`, kind: 'text', caseExact: true },
  username: { sql: Prisma.sql`i.user_name`, kind: 'text' },
  displayname: { sql: Prisma.sql`i.display_name`, kind: 'text' },
  emails: { sql: Prisma.sql`i.email_addresses`, kind: 'texts' },
  'emails.value': { sql: Prisma.sql`i.email_addresses`, kind: 'texts' },
  active: { sql: Prisma.sql`NOT i.disabled`, kind: 'flag' },
  'meta.lastmodified': { sql: Prisma.sql`i.updated_at`, kind: 'time' },
  'meta.created': { sql: Prisma.sql`i.created_at`, kind: 'time' },
  ...extensionFilters(IDENTITY_EXTENSION),
};

type Row = IdentityRecord & {
  createdAt: Date;
  updatedAt: Date;
  scimAttributes: unknown;
};

const COLUMNS = Prisma.sql`${IDENTITY_RECORD_COLUMNS}, i.created_at AS "createdAt", i.updated_at AS "updatedAt", i.scim_attributes AS "scimAttributes"`;

/** Reads identities as SCIM Users: by id, or a page of those a filter matches. */
@Injectable()
export class ScimUsersRepository {
  constructor(private readonly database: Database) {}

  async findUser(
    tenantId: string,
    identityId: string,
  ): Promise<ScimUserRow | null> {
    const rows = await this.database.query<Row>(Prisma.sql`
      SELECT ${COLUMNS} FROM identity i
       WHERE i.tenant_id = ${tenantId} AND i.identity_id = ${identityId}`);
    return (await this.withAccounts(tenantId, rows))[0] ?? null;
  }

  /**
   * Whether the identity holds one of the tenant's admin roles: SCIM does
   * not change who holds one, so it neither deactivates nor deletes it.
   */
  async holdsAdminRole(tenantId: string, identityId: string): Promise<boolean> {
    const [row] = await this.database.query<{ admin: boolean }>(Prisma.sql`
      SELECT EXISTS (
        SELECT 1 FROM role_assignment ra JOIN tenant t ON t.id = ra.tenant_id
         WHERE ra.tenant_id = ${tenantId} AND ra.identity_id = ${identityId}
           AND ra.role_name = ANY (t.admin_roles)) AS admin`);
    return row.admin;
  }

  /**
   * The identities a SCIM `filter` matches (all without one), how many in
   * all and a page of them by identityId: `offset` skipped, at most
   * `limit`. Filtered and paged in SQL.
   */
  async findUsers(
    tenantId: string,
    filter: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: ScimUserRow[] }> {
    const where = filter
      ? filterToSql(filter, USER_FILTER_ATTRIBUTES)
      : Prisma.sql`TRUE`;
    const [[{ total }], rows] = await Promise.all([
      this.database.query<{ total: bigint }>(Prisma.sql`
        SELECT count(*) AS total FROM identity i
         WHERE i.tenant_id = ${tenantId} AND ${where}`),
      limit === 0
        ? Promise.resolve([])
        : this.database.query<Row>(Prisma.sql`
            SELECT ${COLUMNS} FROM identity i
             WHERE i.tenant_id = ${tenantId} AND ${where}
             ORDER BY i.identity_id
             LIMIT ${limit} OFFSET ${offset}`),
    ]);
    return {
      total: Number(total),
      rows: await this.withAccounts(tenantId, rows),
    };
  }

  /** The rows with their accounts, read in one query for all of them. */
  private async withAccounts(
    tenantId: string,
    rows: Row[],
  ): Promise<ScimUserRow[]> {
    if (rows.length === 0) return [];
    const accounts = await this.database.query<
      ScimAccount & { identityId: string }
    >(Prisma.sql`
      SELECT identity_id AS "identityId", account_id AS "accountId",
             account_provider_id AS "accountProviderId", issued_user_id AS "issuedUserId",
             display_name AS "displayName", email_address AS "emailAddress"
        FROM account
       WHERE tenant_id = ${tenantId}
         AND identity_id IN (${Prisma.join(rows.map((r) => r.identityId))})
       ORDER BY account_id`);
    const byIdentity = new Map<string, ScimAccount[]>();
    for (const account of accounts) {
      const list = byIdentity.get(account.identityId);
      if (list) list.push(account);
      else byIdentity.set(account.identityId, [account]);
    }
    return rows.map((row) => ({
      ...row,
      accounts: (byIdentity.get(row.identityId) ?? []).map(
        ({
          accountId,
          accountProviderId,
          issuedUserId,
          displayName,
          emailAddress,
        }) => ({
          accountId,
          accountProviderId,
          issuedUserId,
          displayName,
          emailAddress,
        }),
      ),
    }));
  }
}
