import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { SettingsRows } from '../admin/settings-rows.repository';
import { Database } from '../database/database';
import type { Transaction } from '../database/database';
import { builder, statement, StatementRow } from '../database/sql';
import type { AdminAction } from '../events/events.repository';
import { Prisma } from '../generated/prisma/client';
import type { AttemptResult } from './webhook-sender';

/** A subscription's settings and delivery state, as stored. */
export type WebhookRow = Omit<
  Prisma.WebhookGetPayload<object>,
  'leaseOwner' | 'leaseUntil' | 'tenantId'
>;

const OMIT = { leaseOwner: true, leaseUntil: true, tenantId: true } as const;

/** The settings an admin sets; the rest is the service's. */
export type WebhookSettings = Pick<
  WebhookRow,
  'url' | 'eventTypes' | 'description' | 'enabled'
>;

/**
 * What a change writes of a subscription: its settings, its secrets, its
 * delivery state. Its revision and its time of change follow.
 */
export type WebhookChange = Partial<
  Omit<WebhookRow, 'id' | 'revision' | 'createdAt' | 'updatedAt'>
>;

/** What the audit log calls a change of a subscription. */
export type WebhookAction =
  'webhook.updated' | 'webhook.secret-rotated' | 'webhook.replayed';

/** Why a change of a subscription was not made; the service says it. */
export type WebhookRefusal =
  | { refused: 'stale' }
  | { refused: 'exists' }
  | { refused: 'full'; max: number };

/**
 * What the audit log says of a subscription: its settings, never a secret;
 * in the entries of its changes (not of its creation or removal), its
 * position too.
 */
const described = (row: WebhookRow, action: AdminAction) => ({
  url: row.url,
  eventTypes: row.eventTypes,
  description: row.description,
  enabled: row.enabled,
  ...(action !== 'webhook.created' &&
    action !== 'webhook.deleted' && { position: String(row.position) }),
});

/** A subscription of the tenant, its row locked for the transaction. */
const LOCK_WEBHOOK = statement((p: { tenantId: string; id: string }) =>
  builder
    .selectFrom('webhook')
    .select([
      'id',
      'url',
      'event_types as eventTypes',
      'description',
      'enabled',
      'status',
      'secret',
      'previous_secret as previousSecret',
      'previous_secret_until as previousSecretUntil',
      'secret_created_at as secretCreatedAt',
      'position',
      'revision',
      'next_attempt_at as nextAttemptAt',
      'failing_since as failingSince',
      'failed_attempts as failedAttempts',
      'last_delivered_at as lastDeliveredAt',
      'last_delivered_event_id as lastDeliveredEventId',
      'last_error_at as lastErrorAt',
      'last_error as lastError',
      'replayed_at as replayedAt',
      'created_at as createdAt',
      'updated_at as updatedAt',
    ])
    .where('tenant_id', '=', p.tenantId)
    .where('id', '=', p.id)
    .forUpdate(),
);

async function lockWebhook(
  tx: Transaction,
  tenantId: string,
  id: string,
): Promise<WebhookRow | null> {
  const [row]: (WebhookRow | undefined)[] = await tx.rows(LOCK_WEBHOOK, {
    tenantId,
    id,
  });
  return row ?? null;
}

/** An interval of `value` milliseconds. */
const interval = (value: unknown) =>
  sql<string>`(${value} * interval '1 millisecond')`;

/** The previous secret while its overlap lasts. */
const PREVIOUS_SECRET = sql<
  string | null
>`CASE WHEN previous_secret_until > now() THEN previous_secret END`;

/**
 * How many wanted events wait for each subscription (all, or `one`), and
 * since when, among the next `cap` events of its tenant (so that a
 * subscription wanting few types reads no more than that); see backlogs.
 */
const backlogs = (one: boolean) =>
  statement((p: { tenantId: string; id: string; cap: number }) =>
    builder
      .selectFrom('webhook as w')
      .crossJoinLateral((eb) =>
        eb
          .selectFrom(
            builder
              .selectFrom('identity_event as e')
              .select(['e.occurred_at', 'e.type'])
              .where('e.tenant_id', '=', sql.ref<string>('w.tenant_id'))
              .where('e.id', '>', sql.ref<bigint>('w.position'))
              .orderBy('e.id')
              .limit(p.cap)
              .as('x'),
          )
          .where(
            sql<boolean>`('*' = ANY(w.event_types) OR ('identity.' || x.type) = ANY(w.event_types))`,
          )
          .select((eb) => [
            sql<bigint>`count(*)::bigint`.as('backlog'),
            eb.fn.min('x.occurred_at').as('oldestUndelivered'),
          ])
          .as('b'),
      )
      .select([
        'w.id',
        'w.tenant_id as tenantId',
        'w.status',
        'w.last_delivered_at as lastDeliveredAt',
        'b.backlog',
        'b.oldestUndelivered',
      ])
      .$if(one, (q) =>
        q.where('w.tenant_id', '=', p.tenantId).where('w.id', '=', p.id),
      )
      .orderBy('w.id'),
  );
const BACKLOGS = { all: backlogs(false), one: backlogs(true) };

/** The largest id an attempt can have: no cursor yet, every attempt is before it. */
const LAST_ATTEMPT = 9223372036854775807n;

/**
 * A subscription's attempts before `beforeId`, newest first (an index range
 * of webhook_attempt_webhook_id_id_idx), each with when its event was
 * committed: a lookup by the event's primary key, none once the change log
 * has dropped it.
 */
const ATTEMPTS = statement(
  (p: { webhookId: string; beforeId: bigint; limit: number }) =>
    builder
      .selectFrom('webhook_attempt as a')
      .leftJoin('identity_event as e', 'e.id', 'a.event_id')
      .select([
        'a.id',
        'a.event_id as eventId',
        'a.attempted_at as attemptedAt',
        'a.duration_ms as durationMs',
        'a.status',
        'a.error',
        'e.occurred_at as eventOccurredAt',
      ])
      .where('a.webhook_id', '=', p.webhookId)
      .where('a.id', '<', p.beforeId)
      .orderBy('a.id', 'desc')
      .limit(p.limit),
);

/** One attempt of the delivery log, with when its event was committed (null once the change log has dropped it). */
export type AttemptRow = StatementRow<typeof ATTEMPTS>;

/** The live figures of a subscription's delivery. */
export type Backlog = StatementRow<typeof BACKLOGS.all>;

/** A subscription (`c`) no worker holds and the back-off lets go. */
const FREE = sql<boolean>`c.status IN ('active', 'retrying')
  AND c.next_attempt_at <= now()
  AND (c.lease_until IS NULL OR c.lease_until < now())`;

interface ClaimParams {
  owner: string;
  leaseMs: number;
  limit: number;
  tenantLimit: number;
  /** The tenant of each subscription the worker holds already. */
  held: string[];
}

/**
 * Leases up to `limit` subscriptions due for delivery that have events
 * after their position and no live lease, taking turns between tenants;
 * see claim.
 */
const CLAIM = statement((p: ClaimParams) =>
  builder
    .with('due', (db) =>
      db
        .selectFrom('webhook as c')
        .select([
          'c.id',
          'c.next_attempt_at',
          // The how-manieth subscription of its tenant this one would be
          // here: the held ones first, then by time in the queue.
          sql<number>`row_number() OVER (PARTITION BY c.tenant_id ORDER BY c.next_attempt_at, c.id)
            + (SELECT count(*) FROM unnest(${p.held}::text[]) AS h(tenant_id)
                WHERE h.tenant_id = c.tenant_id)`.as('turn'),
        ])
        .where(FREE)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('identity_event as e')
              .select(sql.lit(1).as('one'))
              .whereRef('e.tenant_id', '=', 'c.tenant_id')
              .whereRef('e.id', '>', 'c.position'),
          ),
        ),
    )
    .updateTable('webhook as w')
    .set({
      lease_owner: p.owner,
      lease_until: sql<Date>`now() + ${interval(p.leaseMs)}`,
    })
    .where('w.id', 'in', (eb) =>
      eb
        .selectFrom('webhook as c')
        .innerJoin('due', 'due.id', 'c.id')
        .select('c.id')
        // Checked again on the row as it is locked: another instance may
        // have claimed it since the statement began.
        .where(FREE)
        .where('due.turn', '<=', p.tenantLimit)
        .orderBy('due.turn')
        .orderBy('due.next_attempt_at')
        .limit(p.limit)
        .forUpdate('c')
        .skipLocked(),
    )
    .returning([
      'w.id',
      'w.tenant_id as tenantId',
      'w.url',
      'w.event_types as eventTypes',
      'w.position',
      'w.revision',
      'w.secret',
      PREVIOUS_SECRET.as('previousSecret'),
      'w.failed_attempts as failedAttempts',
    ]),
);

/** A subscription a worker holds, with what it needs to deliver. */
export type ClaimedWebhook = StatementRow<typeof CLAIM>;

interface ProgressParams {
  id: string;
  owner: string;
  revision: number;
  position: bigint;
  leaseMs: number;
  delivered: boolean;
  last: bigint | null;
  eventIds: string[];
  durations: number[];
  statuses: (number | null)[];
  errors: (string | null)[];
}

/** Moves the position, logs the attempts, renews the lease; see progressed. */
const PROGRESSED = statement((p: ProgressParams) =>
  builder
    .with('moved', (db) =>
      db
        .updateTable('webhook')
        .set({
          position: p.position,
          lease_until: sql<Date>`now() + ${interval(p.leaseMs)}`,
          last_delivered_at: sql<Date | null>`CASE WHEN ${p.delivered} THEN now() ELSE last_delivered_at END`,
          last_delivered_event_id: sql<
            bigint | null
          >`COALESCE(${p.last}::bigint, last_delivered_event_id)`,
          failed_attempts: sql<number>`CASE WHEN ${p.delivered} THEN 0 ELSE failed_attempts END`,
          failing_since: sql<Date | null>`CASE WHEN ${p.delivered} THEN NULL ELSE failing_since END`,
          status: sql<string>`CASE WHEN ${p.delivered} THEN 'active' ELSE status END`,
        })
        .where('id', '=', p.id)
        .where('lease_owner', '=', p.owner)
        .where('revision', '=', p.revision)
        .returning(['id', 'secret', PREVIOUS_SECRET.as('previousSecret')]),
    )
    .with('logged', (db) =>
      db
        .insertInto('webhook_attempt')
        .columns(['webhook_id', 'event_id', 'duration_ms', 'status', 'error'])
        .expression(
          db
            .selectFrom([
              'moved',
              sql<{
                event_id: bigint;
                duration_ms: number;
                status: number | null;
                error: string | null;
              }>`unnest(${p.eventIds}::bigint[], ${p.durations}::int[],
                        ${p.statuses}::int[], ${p.errors}::text[])`.as<'a'>(
                sql`a(event_id, duration_ms, status, error)`,
              ),
            ])
            .select([
              'moved.id as webhook_id',
              'a.event_id',
              'a.duration_ms',
              'a.status',
              'a.error',
            ]),
        ),
    )
    .selectFrom('moved')
    .select(['secret', 'previousSecret']),
);

interface FailedParams {
  id: string;
  owner: string;
  revision: number;
  error: string;
  delayMs: number;
  retryMs: number;
  gone: boolean;
}

/** Records a failed attempt and ends the lease; see failed. */
const FAILED = statement((p: FailedParams) =>
  builder
    .updateTable('webhook')
    .set({
      failed_attempts: sql<number>`failed_attempts + 1`,
      failing_since: sql<Date>`COALESCE(failing_since, now())`,
      next_attempt_at: sql<Date>`now() + ${interval(p.delayMs)}`,
      last_error_at: sql<Date>`now()`,
      last_error: p.error,
      status: sql<string>`CASE
        WHEN ${p.gone} THEN 'disabled'
        WHEN COALESCE(failing_since, now()) <= now() - ${interval(p.retryMs)}
          THEN 'failing'
        ELSE 'retrying' END`,
      enabled: sql<boolean>`enabled AND NOT ${p.gone}`,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', p.id)
    .where('lease_owner', '=', p.owner)
    .where('revision', '=', p.revision)
    .returning('status'),
);

/** Gives a subscription back; see release. */
const RELEASE = statement((p: { id: string; owner: string }) =>
  builder
    .updateTable('webhook')
    .set({
      lease_owner: null,
      lease_until: null,
      next_attempt_at: sql<Date>`GREATEST(next_attempt_at, now())`,
    })
    .where('id', '=', p.id)
    .where('lease_owner', '=', p.owner)
    .returning('id'),
);

/** Drops the delivery attempts older than `days`: how many. */
const PRUNE_ATTEMPTS = statement((p: { days: number }) =>
  builder
    .with('pruned', (db) =>
      db
        .deleteFrom('webhook_attempt')
        .where(
          'attempted_at',
          '<',
          sql<Date>`now() - (${p.days} * interval '1 day')`,
        )
        .returning('id'),
    )
    .selectFrom('pruned')
    .select(sql<number>`count(*)::int`.as('pruned')),
);

/** A change log event with the version it gave its identity. */
export type DeliverableEvent = Prisma.IdentityEventGetPayload<object>;

/**
 * A tenant's webhook subscriptions (admin changes as SettingsRows makes
 * them) and the statements of their delivery: a worker claims a
 * subscription with a lease (FOR UPDATE SKIP LOCKED, so instances never
 * claim the same one), and every step after that is fenced by the lease
 * and the revision it claimed.
 */
@Injectable()
export class WebhooksRepository {
  private readonly webhooks: SettingsRows<WebhookRow>;

  constructor(private readonly database: Database) {
    this.webhooks = new SettingsRows(
      database,
      'webhook',
      lockWebhook,
      described,
    );
  }

  findWebhooks(
    tenantId: string,
    afterId: string | undefined,
    limit: number,
  ): Promise<WebhookRow[]> {
    return this.database.models.webhook.findMany({
      where: {
        tenantId,
        ...(afterId !== undefined && { id: { gt: afterId } }),
      },
      orderBy: { id: 'asc' },
      take: limit,
      omit: OMIT,
    });
  }

  findWebhook(tenantId: string, id: string): Promise<WebhookRow | null> {
    return this.database.models.webhook.findFirst({
      where: { tenantId, id },
      omit: OMIT,
    });
  }

  /**
   * Adds a subscription; refused as 'full' when the tenant has `max`
   * already, counted behind the tenant's settings lock so that concurrent
   * requests cannot each count the others out.
   */
  createWebhook(
    tenantId: string,
    row: WebhookSettings & { id: string; secret: string; status: string },
    actor: string,
    max: number,
  ): Promise<WebhookRow | WebhookRefusal> {
    return this.webhooks.create(
      tenantId,
      row.id,
      actor,
      (tx) => insertWebhook(tx, tenantId, row),
      async (tx) =>
        (await tx.models.webhook.count({ where: { tenantId } })) >= max
          ? { refused: 'full' as const, max }
          : undefined,
    );
  }

  /**
   * Writes what `change` makes of the subscription when `check` passes on
   * its current state, and raises its revision (a worker that claimed an
   * older one stops); the audit log names it `webhook.<action>`. Null when
   * there is no such subscription.
   */
  changeWebhook(
    tenantId: string,
    id: string,
    check: (current: WebhookRow) => boolean,
    actor: string,
    action: WebhookAction,
    change: (current: WebhookRow) => WebhookChange,
  ): Promise<WebhookRow | WebhookRefusal | null> {
    return this.webhooks.update(
      tenantId,
      id,
      check,
      actor,
      action,
      (tx, current) =>
        tx.models.webhook.update({
          where: { id },
          data: {
            ...change(current),
            revision: { increment: 1 },
            updatedAt: new Date(),
          },
          omit: OMIT,
        }),
    );
  }

  /**
   * Removes the subscription (its delivery log with it) when `check`
   * passes on it: what it was. Null when there is none.
   */
  removeWebhook(
    tenantId: string,
    id: string,
    check: (current: WebhookRow) => boolean,
    actor: string,
  ): Promise<WebhookRow | WebhookRefusal | null> {
    return this.webhooks.remove(
      tenantId,
      id,
      check,
      actor,
      async (tx, current) => {
        await tx.models.webhook.delete({ where: { id } });
        return current;
      },
    );
  }

  /** The id of the tenant's first event at or after `since`, if any. */
  async firstEventSince(tenantId: string, since: Date): Promise<bigint | null> {
    const first = await this.database.models.identityEvent.findFirst({
      where: { tenantId, occurredAt: { gte: since } },
      orderBy: { id: 'asc' },
      select: { id: true },
    });
    return first?.id ?? null;
  }

  /**
   * How many wanted events wait for each subscription (the tenant's one
   * with `id`, or all of them), and since when, among the next `cap` events
   * of its tenant: one query, whichever the number of subscriptions, that
   * reads at most `cap` events for each.
   */
  backlogs(
    only?: { tenantId: string; id: string },
    cap = 1_000_000,
  ): Promise<Backlog[]> {
    return this.database.primary.rows(only ? BACKLOGS.one : BACKLOGS.all, {
      tenantId: only?.tenantId ?? '',
      id: only?.id ?? '',
      cap,
    });
  }

  /** The delivery log, newest first, before attempt `beforeId`. */
  findAttempts(
    webhookId: string,
    beforeId: bigint | undefined,
    limit: number,
  ): Promise<AttemptRow[]> {
    return this.database.primary.rows(ATTEMPTS, {
      webhookId,
      beforeId: beforeId ?? LAST_ATTEMPT,
      limit,
    });
  }

  // The statements of delivery.

  /**
   * Claims up to `limit` subscriptions due for delivery that have events
   * after their position and no live lease, for `owner` until the lease
   * runs out. Tenants take turns: at most `tenantLimit` of one tenant's
   * counting those `held` (a tenant id per subscription the owner holds),
   * each tenant's longest waiting first, the tenants holding fewest first.
   */
  claim(
    owner: string,
    leaseMs: number,
    limit: number,
    { tenantLimit, held }: Pick<ClaimParams, 'tenantLimit' | 'held'>,
  ) {
    return this.database.primary.rows(CLAIM, {
      owner,
      leaseMs,
      limit,
      tenantLimit,
      held,
    });
  }

  /** Up to `limit` events of the tenant after `position`, in order. */
  eventsAfter(
    tenantId: string,
    position: bigint,
    limit: number,
  ): Promise<DeliverableEvent[]> {
    return this.database.models.identityEvent.findMany({
      where: { tenantId, id: { gt: position } },
      orderBy: { id: 'asc' },
      take: limit,
    });
  }

  /**
   * Records progress: the position moves to `position` (the last event
   * handled, delivered or skipped), the `attempts` made meanwhile (failed
   * ones too) are logged, the lease is renewed. Returns the secrets to
   * sign the next events with, or undefined when the lease or the revision
   * is no longer this worker's (it must stop).
   */
  async progressed(
    claim: ClaimedWebhook,
    owner: string,
    position: bigint,
    attempts: { eventId: bigint; attempt: AttemptResult }[],
    leaseMs: number,
  ): Promise<Pick<ClaimedWebhook, 'secret' | 'previousSecret'> | undefined> {
    const ok = attempts.filter((a) => a.attempt.ok);
    const delivered = ok.length > 0;
    const last = ok.reduce<bigint | null>(
      (max, a) => (max === null || a.eventId > max ? a.eventId : max),
      null,
    );
    const [row] = await this.database.primary.rows(PROGRESSED, {
      id: claim.id,
      owner,
      revision: claim.revision,
      position,
      leaseMs,
      delivered,
      last,
      eventIds: attempts.map((a) => String(a.eventId)),
      durations: attempts.map((a) => a.attempt.durationMs),
      statuses: attempts.map((a) => a.attempt.status ?? null),
      errors: attempts.map((a) => a.attempt.error ?? null),
    });
    return row;
  }

  /**
   * Records a failed attempt: the next one after `delayMs`; the
   * subscription is `failing` once failures have gone on longer than
   * `retrySeconds`, `disabled` at once when `gone` (410). Ends the lease.
   * (The attempt itself is logged with the others, by `progressed`.)
   */
  async failed(
    claim: ClaimedWebhook,
    owner: string,
    attempt: AttemptResult,
    delayMs: number,
    retrySeconds: number,
    gone: boolean,
  ): Promise<string | undefined> {
    const [row] = await this.database.primary.rows(FAILED, {
      id: claim.id,
      owner,
      revision: claim.revision,
      error: attempt.error ?? 'failed',
      delayMs,
      retryMs: retrySeconds * 1000,
      gone,
    });
    return row?.status;
  }

  /**
   * Gives the subscription back for any worker to claim, behind those
   * waiting (claims go by next_attempt_at, which it had reached).
   */
  async release(id: string, owner: string): Promise<void> {
    await this.database.primary.rows(RELEASE, { id, owner });
  }

  /** Drops delivery attempts older than `days`; how many. */
  async pruneAttempts(days: number): Promise<number> {
    const [{ pruned }] = await this.database.primary.rows(PRUNE_ATTEMPTS, {
      days,
    });
    return pruned;
  }
}

/**
 * Stores a subscription that delivers the events committed after it: its
 * position is the tenant's last event (events commit in id order per
 * tenant, so none committed later has a lower id).
 */
async function insertWebhook(
  tx: Transaction,
  tenantId: string,
  row: WebhookSettings & { id: string; secret: string; status: string },
): Promise<WebhookRow> {
  const {
    _max: { id: last },
  } = await tx.models.identityEvent.aggregate({
    where: { tenantId },
    _max: { id: true },
  });
  return tx.models.webhook.create({
    data: { ...row, tenantId, position: last ?? 0n },
    omit: OMIT,
  });
}
