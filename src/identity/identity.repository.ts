import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { sql, Updateable } from 'kysely';
import { builder, onTenantKey, statement } from '../database/sql';
import { appendEvents, eventsOf } from '../events/events.repository';
import type { Identity } from '../generated/kysely/tables';
import { Prisma } from '../generated/prisma/client';
import { isDeepStrictEqual } from 'node:util';
import {
  emptyValue,
  FieldKind,
  IDENTITY_FIELDS,
  IdentityField,
  IdentityFieldValues,
} from './identity-fields';
import { IdentityRecord } from './identity.record';
import { NEXT_VERSION, WRITTEN } from './identity-writes';

/** A row's columns from an outer join: each may be null. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };

/** The SQL type of each kind of identity field. */
export const SQL_TYPE_OF_KIND: Record<FieldKind, string> = {
  id: 'text',
  text: 'text',
  email: 'text',
  locality: 'text',
  datetime: 'timestamptz',
  flag: 'boolean',
  texts: 'text[]',
  emails: 'text[]',
  localities: 'text[]',
  urls: 'text[]',
  properties: 'jsonb',
};

/** The column of each field of an IdentityRecord. */
export const IDENTITY_COLUMN = {
  ...(Object.fromEntries(
    Object.entries(IDENTITY_FIELDS).map(([field, spec]) => [
      field,
      spec.column,
    ]),
  ) as Record<IdentityField, string>),
  version: 'version',
} satisfies Record<keyof IdentityRecord, string>;

const IDENTITY_KEYS = Object.keys(IDENTITY_COLUMN) as (keyof IdentityRecord)[];

/** The column of an IdentityRecord's key. */
type ColumnOf<K extends keyof IdentityRecord> = K extends IdentityField
  ? (typeof IDENTITY_FIELDS)[K]['column']
  : K;

/** A column of the identity aliased `i`, selected as its field. */
type IdentitySelection<K extends keyof IdentityRecord> = {
  [F in K]: `i.${ColumnOf<F>} as ${F}`;
}[K];

/**
 * The columns of `keys` from the table aliased `i`, each named as its
 * field: the row types the builder infers for them are the schema's.
 */
export const identitySelection = <K extends keyof IdentityRecord>(
  keys: readonly K[],
) =>
  keys.map(
    (key) => `i.${IDENTITY_COLUMN[key]} as ${key}` as IdentitySelection<K>,
  );

/**
 * The columns of an IdentityRecord from the table aliased `i`, named as its
 * fields, for statements (src/database/sql.ts) that read an identity
 * together with other facts in one round trip: identityOf holds the rows
 * to IdentityRecord.
 */
export const IDENTITY_SELECTION = identitySelection(IDENTITY_KEYS);

/**
 * The identity in a row that selected IDENTITY_SELECTION through an outer
 * join: null when no identity was joined.
 */
export function identityOf(
  row: Nullable<IdentityRecord>,
): IdentityRecord | null {
  if (row.identityId === null) return null;
  // A copy of the template is made whole at once (its keys in this order),
  // rather than grown key by key.
  const identity: Record<string, unknown> = { ...IDENTITY_TEMPLATE };
  for (const key of IDENTITY_KEYS) identity[key] = row[key];
  return identity as IdentityRecord;
}

/** An IdentityRecord's keys, in order, as identityOf's copies start. */
const IDENTITY_TEMPLATE: Record<string, unknown> = Object.fromEntries(
  IDENTITY_KEYS.map((key) => [key, null]),
);

/**
 * Columns a write may change: the identity's fields, and what a SCIM
 * directory said of its values (src/scim/scim-value-attributes.ts), kept
 * beside them and versioned with them, though not a field of the identity.
 */
export type IdentityChanges = Partial<
  Omit<IdentityRecord, 'identityId' | 'version' | 'properties'> & {
    properties: Record<string, string>;
    scimAttributes: Record<string, unknown>;
  }
>;

/** A plan's view of the locked row beyond its fields. */
export interface IdentityExtras {
  scimAttributes: unknown;
}

const COLUMN_OF_CHANGE: Record<keyof IdentityChanges, string> = {
  ...IDENTITY_COLUMN,
  scimAttributes: 'scim_attributes',
};
const JSON_CHANGES = new Set(['properties', 'scimAttributes']);

/**
 * The identity's fields a write changes, as its event names them: what a
 * directory said of the values is not a field (a write of only that is an
 * `updated` event with no fields).
 */
const changedFields = (changes: IdentityChanges) =>
  Object.keys(changes).filter((field) => field !== 'scimAttributes');

const OMIT = {
  tenantId: true,
  createdAt: true,
  updatedAt: true,
  scimAttributes: true,
} as const;

export class MergeConflict extends Error {}

/** Prisma's row as the plain record: its properties are an object of strings. */
const record = (
  row: Omit<IdentityRecord, 'properties'> & { properties: unknown },
) =>
  ({
    ...row,
    properties: row.properties as Record<string, string>,
  }) as IdentityRecord;

interface WriteParams {
  tenantId: string;
  identityId: string;
  version: bigint;
  /** The new value of each field written, by `set.<field>`. */
  [change: `set.${string}`]: unknown;
}

/**
 * The statement that writes `fields` and their event if the identity is at
 * the version given, and returns it as written. One statement per set of
 * fields, built on first use: a PUT of the same fields reuses its plan.
 */
const writeAtVersion = (() => {
  const built = new Map<string, ReturnType<typeof build>>();
  const build = (fields: (keyof IdentityChanges)[]) =>
    statement((p: WriteParams) => {
      const set: Record<string, unknown> = {
        ...WRITTEN,
      };
      for (const field of fields)
        set[COLUMN_OF_CHANGE[field]] = JSON_CHANGES.has(field)
          ? sql`${p[`set.${field}`]}::jsonb`
          : p[`set.${field}`];
      return builder
        .with('updated', (db) =>
          db
            .updateTable('identity as i')
            // Columns named by COLUMN_OF_CHANGE, which the identity's fields define.
            .set(set as Updateable<Identity>)
            .where('i.tenant_id', '=', p.tenantId)
            .where('i.identity_id', '=', p.identityId)
            .where('i.version', '=', p.version)
            .returning(IDENTITY_SELECTION),
        )
        .with('event', () =>
          eventsOf(
            'updated',
            p.tenantId,
            'updated',
            fields.filter((field) => field !== 'scimAttributes'),
          ),
        )
        .selectFrom('updated')
        .selectAll();
    });
  return (fields: (keyof IdentityChanges)[]) => {
    const key = fields.join();
    let found = built.get(key);
    if (!found) {
      // The fields a PUT or a directory writes are few combinations; a
      // bound keeps a caller that writes ever new ones from growing it.
      if (built.size >= 256) built.clear();
      built.set(key, (found = build(fields)));
    }
    return found;
  };
})();

/** The identity, locked for the transaction, with the next version number. */
const LOCK_FOR_UPDATE = statement(
  (p: { tenantId: string; identityId: string }) =>
    builder
      .selectFrom('identity as i')
      .select([
        ...IDENTITY_SELECTION,
        'i.scim_attributes as scimAttributes',
        NEXT_VERSION.as('nextVersion'),
      ])
      .where('i.tenant_id', '=', p.tenantId)
      .where('i.identity_id', '=', p.identityId)
      .forUpdate(),
);

interface MergeParams {
  tenantId: string;
  intoId: string;
  fromId: string;
}

/** The two identities of a merge, locked in the order of their ids. */
const LOCK_MERGED = statement((p: MergeParams) =>
  builder
    .selectFrom('identity')
    .select(['identity_id as identityId', 'old_identity_ids as oldIdentityIds'])
    .where('tenant_id', '=', p.tenantId)
    .where((eb) =>
      eb.or([
        eb('identity_id', '=', p.intoId),
        eb('identity_id', '=', p.fromId),
      ]),
    )
    .orderBy('identity_id')
    .forUpdate(),
);

/** Providers of one account per identity where both identities of a merge have one. */
const MERGE_CLASHES = statement((p: MergeParams) =>
  builder
    .selectFrom('account as b')
    .innerJoin('account_provider as p', (join) =>
      onTenantKey(join, 'p', 'b', 'account_provider_id'),
    )
    .innerJoin('account as a', (join) =>
      onTenantKey(join, 'a', 'b', 'account_provider_id'),
    )
    .select('b.account_provider_id as providerId')
    .distinct()
    .where('b.tenant_id', '=', p.tenantId)
    .where('b.identity_id', '=', p.fromId)
    .where('a.identity_id', '=', p.intoId)
    .where('p.allows_multiple_accounts', '=', false)
    .orderBy('providerId'),
);

type Moves = { tenantId: string; intoId: string; fromId: string };

/** A merge: the accounts of `fromId` become `intoId`'s. */
const MOVE_ACCOUNTS = statement((p: Moves) =>
  builder
    .updateTable('account')
    .set({ identity_id: p.intoId })
    .where('tenant_id', '=', p.tenantId)
    .where('identity_id', '=', p.fromId)
    .returning('account_id'),
);

/** A merge: the friends of `fromId` (but `intoId`) become `intoId`'s, both ways. */
const MOVE_FRIENDS = statement((p: Moves) =>
  builder
    .insertInto('friendship')
    .columns(['tenant_id', 'identity_id', 'friend_id'])
    .expression(
      builder
        .selectFrom('friendship')
        .select([
          'tenant_id',
          sql<string>`${p.intoId}::text`.as('identity_id'),
          'friend_id',
        ])
        .where('tenant_id', '=', p.tenantId)
        .where('identity_id', '=', p.fromId)
        .where('friend_id', '<>', p.intoId)
        .unionAll(
          builder
            .selectFrom('friendship')
            .select([
              'tenant_id',
              'friend_id as identity_id',
              sql<string>`${p.intoId}::text`.as('friend_id'),
            ])
            .where('tenant_id', '=', p.tenantId)
            .where('identity_id', '=', p.fromId)
            .where('friend_id', '<>', p.intoId),
        ),
    )
    .onConflict((conflict) => conflict.doNothing())
    .returning('friend_id'),
);

/** A merge: the roles of `fromId` become `intoId`'s too. */
const MOVE_ROLES = statement((p: Moves) =>
  builder
    .insertInto('role_assignment')
    .columns(['tenant_id', 'identity_id', 'role_name'])
    .expression(
      builder
        .selectFrom('role_assignment')
        .select([
          'tenant_id',
          sql<string>`${p.intoId}::text`.as('identity_id'),
          'role_name',
        ])
        .where('tenant_id', '=', p.tenantId)
        .where('identity_id', '=', p.fromId),
    )
    .onConflict((conflict) => conflict.doNothing())
    .returning('role_name'),
);

const DRAW_VERSION = statement(() =>
  builder.selectNoFrom(NEXT_VERSION.as('version')),
);

export type UpdateOutcome =
  | { outcome: 'missing' }
  | { outcome: 'stale' }
  | { outcome: 'done'; row: IdentityRecord };

@Injectable()
export class IdentityRepository {
  constructor(private readonly database: Database) {}

  /** The database's key for identities' ETags (made by a migration). */
  async findEtagKey(): Promise<Buffer> {
    const key = await this.database.models.serviceKey.findUniqueOrThrow({
      where: { name: 'etag' },
    });
    return Buffer.from(key.secret);
  }

  async findIdentity(
    tenantId: string,
    identityId: string,
  ): Promise<IdentityRecord | null> {
    const row = await this.database.models.identity.findUnique({
      where: { tenantId_identityId: { tenantId, identityId } },
      omit: OMIT,
    });
    return row && record(row);
  }

  /**
   * Updates an identity. `plan` turns its current state into changes. The
   * plan made on `known` (the state the request already read) is written in
   * one statement, with its change event, if the identity is still at that
   * version; if it changed meanwhile, or nothing is known, the update queues
   * on the row lock (lockedUpdate).
   */
  async updateIdentity(
    tenantId: string,
    identityId: string,
    known: IdentityRecord | null,
    plan: (
      current: IdentityRecord,
      extras?: IdentityExtras,
    ) => IdentityChanges | 'unchanged' | 'stale',
  ): Promise<UpdateOutcome> {
    if (known) {
      const changes = plan(known);
      if (changes === 'stale') return { outcome: 'stale' };
      if (changes === 'unchanged') return { outcome: 'done', row: known };
      const row = await this.writeAtVersion(
        tenantId,
        identityId,
        known.version,
        changes,
      );
      if (row) return { outcome: 'done', row };
    }
    return this.lockedUpdate(tenantId, identityId, plan);
  }

  /** Writes `changes` and their event if the identity is at `version`; one statement. */
  private async writeAtVersion(
    tenantId: string,
    identityId: string,
    version: bigint,
    changes: IdentityChanges,
  ): Promise<IdentityRecord | undefined> {
    const fields = Object.keys(changes) as (keyof IdentityChanges)[];
    const values: WriteParams = { tenantId, identityId, version };
    for (const field of fields)
      values[`set.${field}`] = JSON_CHANGES.has(field)
        ? JSON.stringify(changes[field])
        : changes[field];
    const [row] = await this.database.primary.rows(
      writeAtVersion(fields),
      values,
    );
    return row;
  }

  /**
   * Updates an identity in one transaction: locks and reads its row (with
   * the next version number, in the same statement), hands the current
   * state to `plan`, and writes what the plan returns and its change event.
   * Writers of one identity queue on the row lock instead of retrying, so
   * concurrent updates are applied one after the other. A version number
   * drawn for a write that does not happen is skipped, as sequences do.
   */
  private lockedUpdate(
    tenantId: string,
    identityId: string,
    plan: (
      current: IdentityRecord,
      extras: IdentityExtras,
    ) => IdentityChanges | 'unchanged' | 'stale',
  ): Promise<UpdateOutcome> {
    return this.database.transaction(async (tx) => {
      const [locked] = await tx.rows(LOCK_FOR_UPDATE, {
        tenantId,
        identityId,
      });
      if (!locked) return { outcome: 'missing' } as const;
      const { nextVersion, scimAttributes, ...current } = locked;
      const changes = plan(current, { scimAttributes });
      if (changes === 'stale') return { outcome: 'stale' } as const;
      if (changes === 'unchanged')
        return { outcome: 'done', row: current } as const;
      const updated = await tx.models.identity.update({
        where: { tenantId_identityId: { tenantId, identityId } },
        data: {
          ...changes,
          scimAttributes: changes.scimAttributes as
            Prisma.InputJsonObject | undefined,
          version: nextVersion,
          updatedAt: new Date(),
        },
        omit: OMIT,
      });
      await appendEvents(tx, tenantId, [
        { identityId, type: 'updated', fields: changedFields(changes) },
      ]);
      return { outcome: 'done', row: record(updated) } as const;
    });
  }

  /**
   * Creates an identity with its `created` event (naming the fields that
   * have a value) in one transaction.
   */
  createIdentity(
    tenantId: string,
    values: IdentityFieldValues,
    scimAttributes?: Record<string, unknown>,
  ): Promise<IdentityRecord> {
    return this.database.transaction(async (tx) => {
      const created = await tx.models.identity.create({
        data: {
          ...values,
          tenantId,
          ...(scimAttributes && { scimAttributes: scimAttributes as object }),
        },
        omit: OMIT,
      });
      const fields = Object.keys(values).filter(
        (field) =>
          field !== 'identityId' &&
          !isDeepStrictEqual(
            values[field as IdentityField],
            emptyValue(IDENTITY_FIELDS[field as IdentityField].kind),
          ),
      );
      await appendEvents(tx, tenantId, [
        { identityId: values.identityId, type: 'created', fields },
      ]);
      return record(created);
    });
  }

  /**
   * Deletes the identity (its accounts, friendships, role assignments and
   * tokens cascade) with its change event, in one transaction; only at
   * `expectedVersion` when one is given. False when nothing was deleted.
   */
  deleteIdentity(
    tenantId: string,
    identityId: string,
    expectedVersion?: bigint,
  ): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      const { count } = await tx.models.identity.deleteMany({
        where: {
          tenantId,
          identityId,
          ...(expectedVersion === undefined
            ? {}
            : { version: expectedVersion }),
        },
      });
      if (count)
        await appendEvents(tx, tenantId, [
          { identityId, type: 'deleted', fields: [] },
        ]);
      return count > 0;
    });
  }

  /**
   * Merges identity `fromId` into `intoId` in one transaction: accounts,
   * friends and roles move without duplicates, `fromId` and its old ids join
   * `oldIdentityIds`, and `fromId` is deleted (its tokens with it). Throws
   * MergeConflict when it would break a provider's one-account rule.
   */
  mergeIdentities(
    tenantId: string,
    intoId: string,
    fromId: string,
  ): Promise<IdentityRecord> {
    return this.database.transaction(async (tx) => {
      const rows = await tx.rows(LOCK_MERGED, { tenantId, intoId, fromId });
      const into = rows.find((r) => r.identityId === intoId);
      const from = rows.find((r) => r.identityId === fromId);
      if (!into || !from)
        throw new MergeConflict(
          `No identity "${into ? fromId : intoId}" in tenant "${tenantId}".`,
        );
      const clashes = await tx.rows(MERGE_CLASHES, {
        tenantId,
        intoId,
        fromId,
      });
      if (clashes.length)
        throw new MergeConflict(
          `Both identities have an account at ${clashes.map((c) => `"${c.providerId}"`).join(', ')}, which allow${clashes.length > 1 ? '' : 's'} one account per identity; remove one of them first.`,
        );
      const moves = { tenantId, intoId, fromId };
      const accounts = (await tx.rows(MOVE_ACCOUNTS, moves)).length;
      const friends = (await tx.rows(MOVE_FRIENDS, moves)).length;
      const roles = (await tx.rows(MOVE_ROLES, moves)).length;
      const oldIdentityIds = [
        ...new Set([...into.oldIdentityIds, fromId, ...from.oldIdentityIds]),
      ];
      const [{ version }] = await tx.rows(DRAW_VERSION, {});
      const merged = await tx.models.identity.update({
        where: { tenantId_identityId: { tenantId, identityId: intoId } },
        data: { oldIdentityIds, version, updatedAt: new Date() },
        omit: OMIT,
      });
      await tx.models.identity.delete({
        where: { tenantId_identityId: { tenantId, identityId: fromId } },
      });
      const moved = { accounts, friends, roles };
      await appendEvents(tx, tenantId, [
        {
          identityId: intoId,
          type: 'merged',
          fields: [
            ...Object.keys(moved).filter(
              (k) => moved[k as keyof typeof moved] > 0,
            ),
            'oldIdentityIds',
          ],
          relatedIdentityId: fromId,
        },
        {
          identityId: fromId,
          type: 'deleted',
          fields: [],
          relatedIdentityId: intoId,
        },
      ]);
      return record(merged);
    });
  }
}
