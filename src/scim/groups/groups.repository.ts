import { Injectable } from '@nestjs/common';
import { WRITTEN } from '../../identity/identity-writes';
import { Database, type Transaction } from '../../database/database';
import { eventsOf } from '../../events/events.repository';
import { sql } from 'kysely';
import {
  builder,
  condition,
  onTenantKey,
  RowOf,
  statement,
  StatementRow,
} from '../../database/sql';
import { lockTenant } from '../../database/tenant-lock';
import { groupFilter } from './group-filter';
import { joiningIds, MemberChange } from './group-members';

/** The columns of a role as a Group, without its members. */
const GROUP_SELECTION = [
  'id',
  'name',
  'external_id as externalId',
  'version',
  'created_at as createdAt',
  'updated_at as updatedAt',
] as const;
// Aliased r: the Groups filter (group-filter.ts) names its columns so.
const roles = () => builder.selectFrom('role as r').select(GROUP_SELECTION);

/** A role as a Group, without its members. */
export type GroupRow = RowOf<ReturnType<typeof roles>>;

const GROUP = statement((p: { tenantId: string; id: string }) =>
  roles().where('tenant_id', '=', p.tenantId).where('id', '=', p.id),
);

const MEMBERS = statement((p: { tenantId: string; roleNames: string[] }) =>
  builder
    .selectFrom('role_assignment as a')
    .innerJoin('identity as i', (join) =>
      onTenantKey(join, 'i', 'a', 'identity_id'),
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

type Tx = Transaction;

const CREATE_ROLE = statement(
  (p: { tenantId: string; name: string; externalId: string | null }) =>
    builder
      .insertInto('role')
      .values({
        tenant_id: p.tenantId,
        name: p.name,
        external_id: p.externalId,
      })
      .onConflict((conflict) =>
        conflict.columns(['tenant_id', 'name']).doNothing(),
      )
      .returning(GROUP_SELECTION),
);

const LOCK_ROLE = statement((p: { tenantId: string; id: string }) =>
  roles()
    .where('tenant_id', '=', p.tenantId)
    .where('id', '=', p.id)
    .forUpdate(),
);

const DELETE_ROLE = statement((p: { tenantId: string; id: string }) =>
  builder
    .deleteFrom('role')
    .where('tenant_id', '=', p.tenantId)
    .where('id', '=', p.id),
);

/** A Group's new name and externalId, with a new version. */
const UPDATE_ROLE = statement(
  (p: {
    tenantId: string;
    id: string;
    name: string;
    externalId: string | null;
  }) =>
    builder
      .updateTable('role')
      .set({
        name: p.name,
        external_id: p.externalId,
        ...WRITTEN,
      })
      .where('tenant_id', '=', p.tenantId)
      .where('id', '=', p.id)
      .returning(GROUP_SELECTION),
);

const ADMIN_ROLES = statement((p: { tenantId: string }) =>
  builder
    .selectFrom('tenant')
    .select('admin_roles as adminRoles')
    .where('id', '=', p.tenantId),
);

/** Another role of the tenant with the name in any case. */
const NAME_TAKEN = statement(
  (p: { tenantId: string; name: string; exceptId: string | null }) =>
    builder
      .selectFrom('role')
      .select('id')
      .where('tenant_id', '=', p.tenantId)
      .where((eb) =>
        eb(
          eb.fn<string>('ascii_lower', ['name']),
          '=',
          sql<string>`ascii_lower(${p.name})`,
        ),
      )
      .where(sql<boolean>`id IS DISTINCT FROM ${p.exceptId}::text`),
);

/** The identities of the ids, locked against deletion in id order. */
const LOCK_MEMBERS = statement((p: { tenantId: string; ids: string[] }) =>
  builder
    .selectFrom('identity')
    .select('identity_id as identityId')
    .where('tenant_id', '=', p.tenantId)
    .where((eb) => eb('identity_id', '=', eb.fn.any(eb.val(p.ids))))
    .orderBy('identity_id')
    .forKeyShare(),
);

/** A row of the outer join of a count and a page: a Group when the page had one. */
const isGroup = <Row extends { [K in keyof GroupRow]: GroupRow[K] | null }>(
  row: Row,
): row is Row & GroupRow => row.id !== null;

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
    const rows = await this.database.read.query(
      builder
        .with('matched', () =>
          roles()
            .where('tenant_id', '=', tenantId)
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
    const [row] = await this.database.read.rows(GROUP, { tenantId, id });
    return row ?? null;
  }

  /** The members of the named roles, by role and identity id. */
  findMembers(tenantId: string, roleNames: string[]): Promise<MemberRow[]> {
    if (roleNames.length === 0) return Promise.resolve([]);
    return this.database.read.rows(MEMBERS, { tenantId, roleNames });
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
      const [group] = await tx.rows(CREATE_ROLE, {
        tenantId,
        name: write.name,
        externalId: write.externalId,
      });
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
      const [current] = await tx.rows(LOCK_ROLE, { tenantId, id });
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
      const [group] = await tx.rows(UPDATE_ROLE, {
        tenantId,
        id,
        name: write.name,
        externalId: write.externalId,
      });
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
      const [current] = await tx.rows(LOCK_ROLE, { tenantId, id });
      if (!current) return 'missing';
      if (expectedVersion !== undefined && current.version !== expectedVersion)
        return 'stale';
      if ((await adminRoles(tx, tenantId)).includes(current.name))
        return 'admin-role';
      // Its holders lose it: each gets a new version and an event.
      await changeMembers(
        tx,
        tenantId,
        current.name,
        { kind: 'set', members: new Set() },
        false,
      );
      await tx.rows(DELETE_ROLE, { tenantId, id });
      return 'done';
    });
  }

  private inGroupWrite<T>(
    tenantId: string,
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    return this.database.transaction(async (tx) => {
      await lockTenant(tx, GROUP_WRITE_LOCK, tenantId);
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
  const [row] = await tx.rows(ADMIN_ROLES, { tenantId });
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
  const [taken] = await tx.rows(NAME_TAKEN, {
    tenantId,
    name,
    exceptId: exceptId ?? null,
  });
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
  const found = await tx.rows(LOCK_MEMBERS, { tenantId, ids });
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
      ? [{ keep: true, ids: [...change.members] }, [...change.members]]
      : [{ keep: false, ids: [...change.remove] }, [...change.add]];
  const [{ changed }] = await tx.query(
    builder
      .with('removed', (db) =>
        db
          .deleteFrom('role_assignment')
          .where('tenant_id', '=', tenantId)
          .where('role_name', '=', roleName)
          .where((eb) => {
            const listed = eb('identity_id', '=', eb.fn.any(eb.val(stay.ids)));
            // A set keeps the members it lists; a delta removes them.
            return stay.keep ? eb.not(listed) : listed;
          })
          .returning('identity_id'),
      )
      .with('added', (db) =>
        db
          .insertInto('role_assignment')
          .columns(['tenant_id', 'identity_id', 'role_name'])
          .expression(
            builder
              .selectFrom(sql<{ m: string }>`unnest(${join}::text[])`.as('m'))
              .select((eb) => [
                eb.val(tenantId).as('tenant_id'),
                'm.m as identity_id',
                eb.val(roleName).as('role_name'),
              ]),
          )
          .onConflict((conflict) => conflict.doNothing())
          .returning('identity_id'),
      )
      .with('touched', (db) =>
        db
          .selectFrom('removed')
          .select('identity_id')
          .union(db.selectFrom('added').select('identity_id'))
          .$if(everyone, (q) =>
            q.union(
              db
                .selectFrom('role_assignment')
                .select('identity_id')
                .where('tenant_id', '=', tenantId)
                .where('role_name', '=', roleName),
            ),
          ),
      )
      // Each identity that gained or lost the role: a new version and an event.
      .with('bumped', (db) =>
        db
          .updateTable('identity as i')
          .from('touched as s')
          .set(WRITTEN)
          .where('i.tenant_id', '=', tenantId)
          .whereRef('i.identity_id', '=', 's.identity_id')
          .returning('i.identity_id as identityId'),
      )
      .with('event', () => eventsOf('bumped', tenantId, 'updated', ['roles']))
      .selectFrom('bumped')
      .select(sql<number>`count(*)::int`.as('changed')),
  );
  return changed > 0;
}
