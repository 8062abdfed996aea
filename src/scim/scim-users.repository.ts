import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Prisma } from '../generated/prisma/client';
import { sql } from 'kysely';
import { builder, condition, exists, RowOf, statement } from '../database/sql';
import { IDENTITY_SELECTION } from '../identity/identity.repository';
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

/** Identities as SCIM reads them: with their metadata and what SCIM said of them. */
const users = () =>
  builder
    .selectFrom('identity as i')
    .select([
      ...IDENTITY_SELECTION,
      'i.created_at as createdAt',
      'i.updated_at as updatedAt',
      'i.scim_attributes as scimAttributes',
    ]);
type Row = RowOf<ReturnType<typeof users>>;

const USER = statement((p: { tenantId: string; identityId: string }) =>
  users()
    .where('i.tenant_id', '=', p.tenantId)
    .where('i.identity_id', '=', p.identityId),
);

const HOLDS_ADMIN_ROLE = statement(
  (p: { tenantId: string; identityId: string }) =>
    builder.selectNoFrom((eb) =>
      exists(
        eb,
        eb
          .selectFrom('role_assignment as ra')
          .innerJoin('tenant as t', 't.id', 'ra.tenant_id')
          .select(sql.lit(1).as('one'))
          .where('ra.tenant_id', '=', p.tenantId)
          .where('ra.identity_id', '=', p.identityId)
          .where((eb) => eb('ra.role_name', '=', eb.fn.any('t.admin_roles'))),
      ).as('admin'),
    ),
);

/** Reads identities as SCIM Users: by id, or a page of those a filter matches. */
@Injectable()
export class ScimUsersRepository {
  constructor(private readonly database: Database) {}

  async findUser(
    tenantId: string,
    identityId: string,
  ): Promise<ScimUserRow | null> {
    const rows = await this.database.read.rows(USER, { tenantId, identityId });
    return (await this.withAccounts(tenantId, rows))[0] ?? null;
  }

  /**
   * Whether the identity holds one of the tenant's admin roles: SCIM does
   * not change who holds one, so it neither deactivates nor deletes it.
   */
  async holdsAdminRole(tenantId: string, identityId: string): Promise<boolean> {
    const [row] = await this.database.read.rows(HOLDS_ADMIN_ROLE, {
      tenantId,
      identityId,
    });
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
    const where = condition(
      filter ? filterToSql(filter, USER_FILTER_ATTRIBUTES) : Prisma.sql`TRUE`,
    );
    const [[{ total }], rows] = await Promise.all([
      this.database.read.query(
        builder
          .selectFrom('identity as i')
          .select((eb) => eb.fn.countAll<bigint>().as('total'))
          .where('i.tenant_id', '=', tenantId)
          .where(where),
      ),
      limit === 0
        ? Promise.resolve([])
        : this.database.read.query(
            users()
              .where('i.tenant_id', '=', tenantId)
              .where(where)
              .orderBy('i.identity_id')
              .limit(limit)
              .offset(offset),
          ),
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
    const accounts = await this.database.read.query(
      builder
        .selectFrom('account')
        .select([
          'identity_id as identityId',
          'account_id as accountId',
          'account_provider_id as accountProviderId',
          'issued_user_id as issuedUserId',
          'display_name as displayName',
          'email_address as emailAddress',
        ])
        .where('tenant_id', '=', tenantId)
        .where(
          'identity_id',
          'in',
          rows.map((r) => r.identityId),
        )
        .orderBy('account_id'),
    );
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
