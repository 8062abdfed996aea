import { Injectable } from '@nestjs/common';
import { Columns, insertRows } from '../database/bulk-insert';
import { Database, type StatementRunner } from '../database/database';
import { traceContext } from '../common/trace-context';
import { ambient, builder, statement } from '../database/sql';
import { lockTenant } from '../database/tenant-lock';
import { RawBuilder, sql } from 'kysely';
import type { AdminAction } from './admin-actions';

export type EventType =
  'imported' | 'created' | 'updated' | 'deleted' | 'merged';

export interface NewEvent {
  identityId: string;
  type: EventType;
  /** Names of the fields that changed; never their values. */
  fields: string[];
  /** For a merge: the other identity (merged from, or merged into). */
  relatedIdentityId?: string;
}

export interface EventRecord {
  id: bigint;
  tenantId: string;
  identityId: string;
  type: string;
  fields: string[];
  relatedIdentityId: string | null;
  occurredAt: Date;
}

// In a module of their own, which the command line's usage checks load
// without the database.
export { ADMIN_ACTIONS, type AdminAction } from './admin-actions';

export interface NewAdminEvent {
  /** `app:<appId>` for an app token of the admin API, `cli` for the command line. */
  actor: string;
  action: AdminAction;
  /** What was changed: `tenant`, `token:<id>`, `provider:<id>`, `issuer:<url>` or `webhook:<id>`. */
  target: string;
  /** Settings before and after the change; never a secret. */
  before?: object;
  after?: object;
}

/** Which entries of the audit log a page holds: unset keys choose all. */
export interface AdminEventFilter {
  action?: AdminAction;
  actor?: string;
}

export interface AdminEventRecord {
  id: bigint;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  occurredAt: Date;
}

const jsonOrNull = (value: object | undefined) =>
  value === undefined ? null : JSON.stringify(value);

/** The most an audit log entry's settings, before and after together, take as JSON. */
export const MAX_AUDIT_ENTRY_BYTES = 16 * 1024;

/**
 * Ever shorter cuts of lists and strings, tried in turn until an entry
 * fits; the last one (no items, short strings) leaves only the keys.
 */
const CUTS = [
  { items: 20, chars: 1000 },
  { items: 10, chars: 500 },
  { items: 5, chars: 200 },
  { items: 0, chars: 40 },
];

/**
 * `value` with every list cut to `items` items, then a marker saying how
 * many more there were, and every string to `chars` characters, then `…`.
 */
function cut(value: unknown, items: number, chars: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= chars) return value;
    // Never half of a surrogate pair: jsonb refuses a lone one.
    const end = /[\uD800-\uDBFF]/.test(value[chars - 1] ?? '')
      ? chars - 1
      : chars;
    return `${value.slice(0, end)}…`;
  }
  if (Array.isArray(value)) {
    const kept = value.slice(0, items).map((v) => cut(v, items, chars));
    return value.length > items
      ? [...kept, `… ${value.length - items} more`]
      : kept;
  }
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, cut(v, items, chars)]),
    );
  return value;
}

const entryBytes = (settings: { before?: object; after?: object }) =>
  Buffer.byteLength(JSON.stringify(settings));

/**
 * The settings of an entry as the log keeps them: whole when they fit in
 * MAX_AUDIT_ENTRY_BYTES, otherwise with their long lists and strings cut
 * (marked), so that no change writes more than that, whatever it holds.
 */
export function boundedSettings(settings: {
  before?: object;
  after?: object;
}): { before?: object; after?: object } {
  if (entryBytes(settings) <= MAX_AUDIT_ENTRY_BYTES) return settings;
  for (const { items, chars } of CUTS) {
    const shorter = cut(settings, items, chars) as typeof settings;
    if (entryBytes(shorter) <= MAX_AUDIT_ENTRY_BYTES) return shorter;
  }
  return {
    ...(settings.before && { before: { truncated: true } }),
    ...(settings.after && { after: { truncated: true } }),
  };
}

const APPEND_ADMIN_EVENT = statement(
  (p: {
    tenantId: string;
    actor: string;
    action: string;
    target: string;
    before: string | null;
    after: string | null;
  }) =>
    builder.insertInto('admin_event').values({
      tenant_id: p.tenantId,
      actor: p.actor,
      action: p.action,
      target: p.target,
      before: sql`${p.before}::jsonb`,
      after: sql`${p.after}::jsonb`,
    }),
);

/** Appends an entry of the audit log inside the caller's transaction. */
export async function appendAdminEvent(
  tx: StatementRunner,
  tenantId: string,
  event: NewAdminEvent,
): Promise<void> {
  const { before, after } = boundedSettings(event);
  await tx.rows(APPEND_ADMIN_EVENT, {
    tenantId,
    actor: event.actor,
    action: event.action,
    target: event.target,
    before: jsonOrNull(before),
    after: jsonOrNull(after),
  });
}

/** Audit log entries dropped by one statement of the retention. */
const PRUNE_BATCH = 1000;
/** The most statements one run of the retention makes. */
const PRUNE_BATCHES = 50;

/** The audit log entries older than `days` among the log's oldest PRUNE_BATCH, dropped. */
const PRUNE_ADMIN_EVENTS = statement((p: { days: number }) =>
  builder
    .deleteFrom('admin_event')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom(
          eb
            .selectFrom('admin_event')
            .select(['id', 'occurred_at'])
            .orderBy('id')
            .limit(PRUNE_BATCH)
            .as('oldest'),
        )
        .select('oldest.id')
        .where(
          'oldest.occurred_at',
          '<',
          sql<Date>`now() - (${p.days} * interval '1 day')`,
        ),
    )
    .returning('id'),
);

/** First key of the advisory lock that orders each tenant's events. */
const EVENT_ORDER_LOCK = 0x1d3e;

const COLUMNS: Columns = {
  identity_id: ['text', 'identityId'],
  type: ['text', 'type'],
  fields: ['text[]', 'fields'],
  related_identity_id: ['text', 'relatedIdentityId'],
  trace_parent: ['text', 'traceParent'],
};

/** The trace of the change an event records, when tracing is on; see traceContext. */
const TRACE_PARENT = ambient('traceParent', () => traceContext.current());

/**
 * Appends events inside the caller's transaction. Writers of one tenant
 * queue on a transaction-scoped lock first, so event ids become visible in
 * increasing order and a follower reading "after id N" never skips one.
 */
export async function appendEvents(
  tx: StatementRunner,
  tenantId: string,
  events: NewEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await lockTenant(tx, EVENT_ORDER_LOCK, tenantId);
  const traceParent = traceContext.current();
  await insertRows(
    tx,
    'identity_event',
    tenantId,
    COLUMNS,
    traceParent ? events.map((event) => ({ ...event, traceParent })) : events,
  );
}

/**
 * appendEvents as part of a single statement (src/database/sql.ts): a CTE
 * `.with('event', () => eventsOf('source', …))` that inserts an event for
 * each row of `source` (a CTE of the same statement with an "identityId"
 * column). The tenant's event lock is taken per source row, so after the
 * write that produced the row (and its row lock), as the last lock of
 * every transaction; a statement on its own commits right after it and
 * holds the lock for no round trip.
 */
export function eventsOf(
  source: string,
  tenantId: string,
  type: EventType,
  fields: readonly string[],
): RawBuilder<Record<string, never>> {
  return sql`(
    INSERT INTO identity_event (tenant_id, identity_id, type, fields, trace_parent)
    SELECT ${tenantId}, s."identityId", ${type}, ${fields}::text[], ${TRACE_PARENT}::text
      FROM ${sql.table(source)} AS s
     CROSS JOIN LATERAL (
       SELECT pg_advisory_xact_lock(${EVENT_ORDER_LOCK}::int, hashtext(${tenantId}))
        WHERE s."identityId" IS NOT NULL) AS ordered)`;
}

/** The largest id an event can have: no cursor yet, every event is before it. */
const LAST_ID = 9223372036854775807n;

/**
 * An identity's events before `beforeId`, newest first, at most `limit`
 * (an index range of identity_event_tenant_id_identity_id_id_idx). Never
 * the trace they belong to.
 */
const IDENTITY_EVENTS = statement(
  (p: {
    tenantId: string;
    identityId: string;
    beforeId: bigint;
    limit: number;
  }) =>
    builder
      .selectFrom('identity_event')
      .select([
        'id',
        'tenant_id as tenantId',
        'identity_id as identityId',
        'type',
        'fields',
        'related_identity_id as relatedIdentityId',
        'occurred_at as occurredAt',
      ])
      .where('tenant_id', '=', p.tenantId)
      .where('identity_id', '=', p.identityId)
      .where('id', '<', p.beforeId)
      .orderBy('id', 'desc')
      .limit(p.limit),
);

@Injectable()
export class EventsRepository {
  constructor(private readonly database: Database) {}

  findEvents(
    tenantId: string,
    afterId: bigint,
    limit: number,
  ): Promise<EventRecord[]> {
    return this.database.models.identityEvent.findMany({
      where: { tenantId, id: { gt: afterId } },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /** The identity's events before `beforeId` (all without it), newest first, at most `limit`. */
  findIdentityEvents(
    tenantId: string,
    identityId: string,
    beforeId: bigint | undefined,
    limit: number,
  ): Promise<EventRecord[]> {
    return this.database.read.rows(IDENTITY_EVENTS, {
      tenantId,
      identityId,
      beforeId: beforeId ?? LAST_ID,
      limit,
    });
  }

  /**
   * Drops audit log entries older than `days`, oldest first, at most
   * PRUNE_BATCHES × PRUNE_BATCH of them; how many went. Each statement
   * looks only at the log's oldest PRUNE_BATCH entries by id (ids grow with
   * time), so a run costs the same however long the log is.
   */
  async pruneAdminEvents(days: number): Promise<number> {
    let pruned = 0;
    for (let batch = 0; batch < PRUNE_BATCHES; batch++) {
      const dropped = (
        await this.database.primary.rows(PRUNE_ADMIN_EVENTS, { days })
      ).length;
      pruned += dropped;
      if (dropped < PRUNE_BATCH) break;
    }
    return pruned;
  }

  /**
   * The tenant's audit log after `afterId`, in order, at most `limit`; only
   * the entries of one action or one actor (or both) when `filter` names them.
   */
  findAdminEvents(
    tenantId: string,
    filter: AdminEventFilter,
    afterId: bigint,
    limit: number,
  ): Promise<AdminEventRecord[]> {
    return this.database.models.adminEvent.findMany({
      where: {
        tenantId,
        ...(filter.action !== undefined && { action: filter.action }),
        ...(filter.actor !== undefined && { actor: filter.actor }),
        id: { gt: afterId },
      },
      orderBy: { id: 'asc' },
      take: limit,
      omit: { tenantId: true },
    });
  }
}
