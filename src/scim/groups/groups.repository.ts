import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database';
import { appendEventsOf } from '../../events/events.repository';
import { sql } from 'kysely';
import {
  builder,
  condition,
  RowOf,
  statement,
  StatementRow,
} from '../../database/sql';
import { Prisma } from '../../generated/prisma/client';
import { groupFilter } from './group-filter';
import { joiningIds, MemberChange } from './group-members';

/** The columns of a role as a Group, without its members. */
const GROUP_SELECTION = [
  'r.id',
  'r.name',
  'r.external_id as externalId',
  'r.version',
  'r.created_at as createdAt',
  'r.updated_at as updatedAt',
] as const;
const roles = () => builder.selectFrom('role as r').select(GROUP_SELECTION);

/** A role as a Group, without its members. */
export type GroupRow = RowOf<ReturnType<typeof roles>>;

const GROUP = statement((p: { tenantId: string; id: string }) =>
  roles().where('r.tenant_id', '=', p.tenantId).where('r.id', '=', p.id),
);

const MEMBERS = statement((p: { tenantId: string; roleNames: string[] }) =>
  builder
    .selectFrom('role_assignment as a')
    .innerJoin('identity as i', (join) =>
      join
        .onRef('i.tenant_id', '=', 'a.tenant_id')
        .onRef('i.identity_id', '=', 'a.identity_id'),
    )
    .select([
      'a.role_name as roleName',
      'a.identity_id as identityId',
      'i.display_name as displayName',
    ])
    .where('a.tenant_id', '=', p.tenantId)
    .where((eb) => eb('a.role_name', '=', eb.fn.any(eb.val(p.roleNames))))
    .orderBy('a.role_name')
    .orderBy('a.identity_id'),
);

export type MemberRow = StatementRow<typeof MEMBERS>;

/** A Group's new state: the name and externalId it gets, and its members' change. */
export interface GroupWrite {
  name: string;
  externalId: string | null;
  members: MemberChange;
}

export type CreateOutcome =
  | { outcome: 'done'; group: GroupRow }
  | { outcome: 'name-taken' }
  | { outcome: 'admin-role' }
  | { outcome: 'unknown-members'; ids: string[] };

export type WriteOutcome =
  CreateOutcome | { outcome: 'missing' } | { outcome: 'stale' };

type Tx = Prisma.TransactionClient;

/** A row of the outer join of a count and a page: a Group when the page had one. */
const isGroup = <Row extends { [K in keyof GroupRow]: GroupRow[K] | null }>(
  row: Row,
): row is Row & GroupRow => row.id !== null;

const GROUP_COLUMNS = Prisma.raw(
  `r.id, r.name, r.external_id AS "externalId", r.version,
   r.created_at AS "createdAt", r.updated_at AS "updatedAt"`,
);

/**
 * First key of the advisory lock that queues Group writes of one tenant: a
 * write locks the role and many identities, and two of them touching the
 * same identities in another order would otherwise deadlock.
 */
const GROUP_WRITE_LOCK = 0x1d40;

@Injectable()
export class GroupsRepository {
  constructor(private readonly database: Database) {}

  /**
   * A page of the Groups a SCIM `filter` matches (all without one), ordered
   * by name, with the number of all that match.
   */
  async findGroups(
    tenantId: string,
    filter: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; groups: GroupRow[] }> {
    const rows = await this.database.rowsOf(
      builder
        .with('matched', () =>
          roles()
            .where('r.tenant_id', '=', tenantId)
            .where(condition(groupFilter(filter))),
        )
        .selectFrom((eb) =>
          eb
            .selectFrom('matched')
            .select(sql<number>`count(*)::int`.as('total'))
            .as('t'),
        )
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('matched')
              .selectAll()
              .orderBy('name')
              .limit(limit)
              .offset(offset)
              .as('p'),
          (join) => join.onTrue(),
        )
        .select('t.total')
        .selectAll('p'),
    );
    return {
      total: rows[0]?.total ?? 0,
      groups: rows.filter(isGroup),
    };
  }

  async findGroup(tenantId: string, id: string): Promise<GroupRow | null> {
    const [row] = await this.database.rows(GROUP, { tenantId, id });
    return row ?? null;
  }

  /** The members of the named roles, by role and identity id. */
  findMembers(tenantId: string, roleNames: string[]): Promise<MemberRow[]> {
    if (roleNames.length === 0) return Promise.resolve([]);
    return this.database.rows(MEMBERS, { tenantId, roleNames });
  }

  /** Creates a Group with its members, in one transaction. */
  createGroup(tenantId: string, write: GroupWrite): Promise<CreateOutcome> {
    return this.inGroupWrite(tenantId, async (tx) => {
      const unknown = await lockIdentities(
        tx,
        tenantId,
        joiningIds(write.members),
      );
      if (unknown.length) return { outcome: 'unknown-members', ids: unknown };
      if ((await adminRoles(tx, tenantId)).includes(write.name))
        return { outcome: 'admin-role' };
      if (await nameTaken(tx, tenantId, write.name))
        return { outcome: 'name-taken' };
      const [group] = await tx.$queryRaw<GroupRow[]>(Prisma.sql`
        INSERT INTO role AS r (tenant_id, name, external_id)
        VALUES (${tenantId}, ${write.name}, ${write.externalId})
        ON CONFLICT (tenant_id, name) DO NOTHING
        RETURNING ${GROUP_COLUMNS}`);
      if (!group) return { outcome: 'name-taken' };
      await changeMembers(tx, tenantId, write.name, write.members, false);
      return { outcome: 'done', group };
    });
  }

  /**
   * Updates a Group in one transaction: hands its current state to `plan`
   * and writes what the plan returns. A rename keeps the role's
   * assignments (they follow it, ON UPDATE CASCADE) and is a change of
   * every member; a new version is drawn only when something changed.
   */
  updateGroup(
    tenantId: string,
    id: string,
    plan: (current: GroupRow) => GroupWrite | 'stale',
  ): Promise<WriteOutcome> {
    return this.inGroupWrite(tenantId, async (tx) => {
      const [current] = await tx.$queryRaw<GroupRow[]>(Prisma.sql`
        SELECT ${GROUP_COLUMNS} FROM role r
         WHERE r.tenant_id = ${tenantId} AND r.id = ${id} FOR UPDATE`);
      if (!current) return { outcome: 'missing' };
      const write = plan(current);
      if (write === 'stale') return { outcome: 'stale' };
      const admin = await adminRoles(tx, tenantId);
      if (admin.includes(current.name) || admin.includes(write.name))
        return { outcome: 'admin-role' };
      const unknown = await lockIdentities(
        tx,
        tenantId,
        joiningIds(write.members),
      );
      if (unknown.length) return { outcome: 'unknown-members', ids: unknown };
      if (
        write.name !== current.name &&
        (await nameTaken(tx, tenantId, write.name, id))
      )
        return { outcome: 'name-taken' };
      const renamed = write.name !== current.name;
      const changed = await changeMembers(
        tx,
        tenantId,
        current.name,
        write.members,
        renamed,
      );
      if (!renamed && write.externalId === current.externalId && !changed)
        return { outcome: 'done', group: current };
      const [group] = await tx.$queryRaw<GroupRow[]>(Prisma.sql`
        UPDATE role AS r
           SET name = ${write.name}, external_id = ${write.externalId},
               version = nextval('identity_version_seq'), updated_at = now()
         WHERE r.tenant_id = ${tenantId} AND r.id = ${id}
        RETURNING ${GROUP_COLUMNS}`);
      return { outcome: 'done', group };
    });
  }

  /**
   * Deletes a Group (only at `expectedVersion` when one is given): its
   * members lose the role, each with a new version and a change event.
   */
  deleteGroup(
    tenantId: string,
    id: string,
    expectedVersion?: bigint,
  ): Promise<'done' | 'missing' | 'stale' | 'admin-role'> {
    return this.inGroupWrite(tenantId, async (tx) => {
      const [current] = await tx.$queryRaw<GroupRow[]>(Prisma.sql`
        SELECT ${GROUP_COLUMNS} FROM role r
         WHERE r.tenant_id = ${tenantId} AND r.id = ${id} FOR UPDATE`);
      if (!current) return 'missing';
      if (expectedVersion !== undefined && current.version !== expectedVersion)
        return 'stale';
      if ((await adminRoles(tx, tenantId)).includes(current.name))
        return 'admin-role';
      await tx.$queryRaw(Prisma.sql`
        WITH held AS (
          SELECT identity_id FROM role_assignment
           WHERE tenant_id = ${tenantId} AND role_name = ${current.name}
        ), ${bumpIdentities(tenantId, 'held')}
        SELECT count(*)::int AS changed FROM bumped`);
      await tx.$executeRaw(Prisma.sql`
        DELETE FROM role WHERE tenant_id = ${tenantId} AND id = ${id}`);
      return 'done';
    });
  }

  private inGroupWrite<T>(
    tenantId: string,
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    return this.database.prisma.$transaction(async (tx) => {
      await tx.$executeRaw(Prisma.sql`
        SELECT pg_advisory_xact_lock(${GROUP_WRITE_LOCK}::int, hashtext(${tenantId}))`);
      return work(tx);
    });
  }
}

/**
 * The tenant's admin roles (`tenant.adminRoles`): who holds one is
 * configuration, which a provisioning token may read but not change, so
 * that it cannot make admins.
 */
async function adminRoles(tx: Tx, tenantId: string): Promise<string[]> {
  const [row] = await tx.$queryRaw<{ adminRoles: string[] }[]>(Prisma.sql`
    SELECT admin_roles AS "adminRoles" FROM tenant WHERE id = ${tenantId}`);
  return row?.adminRoles ?? [];
}

/**
 * Whether another Group of the tenant has `name` in any case: Groups are
 * found by displayName, which compares case-insensitively (RFC 7643).
 * Group writes are queued per tenant, so the answer holds until commit.
 */
async function nameTaken(
  tx: Tx,
  tenantId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const [taken] = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT id FROM role
     WHERE tenant_id = ${tenantId} AND lower(name) = lower(${name})
       AND id IS DISTINCT FROM ${exceptId ?? null}::text`);
  return taken !== undefined;
}

/**
 * Locks the identities that are to become members against deletion, in id
 * order, and returns the ids that name none.
 */
async function lockIdentities(
  tx: Tx,
  tenantId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await tx.$queryRaw<{ identityId: string }[]>(Prisma.sql`
    SELECT identity_id AS "identityId" FROM identity
     WHERE tenant_id = ${tenantId} AND identity_id = ANY(${ids}::text[])
     ORDER BY identity_id FOR KEY SHARE`);
  const known = new Set(found.map((row) => row.identityId));
  return ids.filter((id) => !known.has(id));
}

/**
 * Applies a change of the role's members; every identity that gains or
 * loses the role (all of its holders when `everyone`, for a rename) gets a
 * new version and an event. True when any identity changed.
 */
async function changeMembers(
  tx: Tx,
  tenantId: string,
  roleName: string,
  change: MemberChange,
  everyone: boolean,
): Promise<boolean> {
  const [stay, join] =
    change.kind === 'set'
      ? [
          Prisma.sql`NOT (identity_id = ANY(${[...change.members]}::text[]))`,
          [...change.members],
        ]
      : [
          Prisma.sql`identity_id = ANY(${[...change.remove]}::text[])`,
          [...change.add],
        ];
  const [{ changed }] = await tx.$queryRaw<{ changed: number }[]>(Prisma.sql`
    WITH removed AS (
      DELETE FROM role_assignment
       WHERE tenant_id = ${tenantId} AND role_name = ${roleName} AND ${stay}
      RETURNING identity_id
    ), added AS (
      INSERT INTO role_assignment (tenant_id, identity_id, role_name)
      SELECT ${tenantId}, m, ${roleName} FROM unnest(${join}::text[]) AS m
      ON CONFLICT DO NOTHING
      RETURNING identity_id
    ), touched AS (
      SELECT identity_id FROM removed UNION SELECT identity_id FROM added
      ${
        everyone
          ? Prisma.sql`UNION SELECT identity_id FROM role_assignment
                        WHERE tenant_id = ${tenantId} AND role_name = ${roleName}`
          : Prisma.empty
      }
    ), ${bumpIdentities(tenantId, 'touched')}
    SELECT count(*)::int AS changed FROM bumped`);
  return changed > 0;
}

/**
 * CTEs (after a WITH) giving each identity of `source` (an identity_id
 * column) a new version and an `updated` event naming its roles.
 */
function bumpIdentities(tenantId: string, source: string): Prisma.Sql {
  return Prisma.sql`bumped AS (
      UPDATE identity AS i
         SET version = nextval('identity_version_seq'), updated_at = now()
        FROM ${Prisma.raw(source)} AS s
       WHERE i.tenant_id = ${tenantId} AND i.identity_id = s.identity_id
      RETURNING i.identity_id AS "identityId"
    ), event AS (${appendEventsOf('bumped', tenantId, 'updated', ['roles'])})`;
}
