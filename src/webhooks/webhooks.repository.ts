import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { Transaction } from '../database/tenant-lock';
import { appendAdminEvent } from '../events/events.repository';
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

/** What the audit log says of a subscription: its settings, never a secret. */
const described = (row: WebhookRow) => ({
  url: row.url,
  eventTypes: row.eventTypes,
  description: row.description,
  enabled: row.enabled,
});

/** A subscription a worker holds, with what it needs to deliver. */
export interface ClaimedWebhook {
  id: string;
  tenantId: string;
  url: string;
  eventTypes: string[];
  position: bigint;
  revision: number;
  secret: string;
  /** The previous secret while its overlap lasts. */
  previousSecret: string | null;
  failedAttempts: number;
}

/** The live figures of a subscription's delivery. */
export interface Backlog {
  id: string;
  tenantId: string;
  status: string;
  lastDeliveredAt: Date | null;
  backlog: bigint;
  oldestUndelivered: Date | null;
}

/** A change log event with the version it gave its identity. */
export type DeliverableEvent = Prisma.IdentityEventGetPayload<object>;

const ms = (value: number) => Prisma.sql`(${value} * interval '1 millisecond')`;

/**
 * A tenant's webhook subscriptions (admin changes, each with its audit log
 * entry in one transaction) and the statements of their delivery: a worker
 * claims a subscription with a lease (FOR UPDATE SKIP LOCKED, so instances
 * never claim the same one), and every step after that is fenced by the
 * lease and the revision it claimed.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly database: Database) {}

  findWebhooks(
    tenantId: string,
    afterId: string | undefined,
    limit: number,
  ): Promise<WebhookRow[]> {
    return this.database.prisma.webhook.findMany({
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
    return this.database.prisma.webhook.findFirst({
      where: { tenantId, id },
      omit: OMIT,
    });
  }

  countWebhooks(tenantId: string): Promise<number> {
    return this.database.prisma.webhook.count({ where: { tenantId } });
  }

  /**
   * Adds a subscription that delivers the events committed after it: its
   * position is the tenant's last event (events commit in id order per
   * tenant, so none committed later has a lower id).
   */
  createWebhook(
    tenantId: string,
    row: WebhookSettings & { id: string; secret: string; status: string },
    actor: string,
  ): Promise<WebhookRow> {
    return this.database.prisma.$transaction(async (tx) => {
      const {
        _max: { id: last },
      } = await tx.identityEvent.aggregate({
        where: { tenantId },
        _max: { id: true },
      });
      const created = await tx.webhook.create({
        data: { ...row, tenantId, position: last ?? 0n },
        omit: OMIT,
      });
      await appendAdminEvent(tx, tenantId, {
        actor,
        action: 'webhook.created',
        target: `webhook:${row.id}`,
        after: described(created),
      });
      return created;
    });
  }

  /**
   * Changes a subscription under a row lock if `allows` accepts its current
   * state: `change` gives the new values. Undefined when there is none,
   * 'stale' when `allows` refused.
   */
  changeWebhook(
    tenantId: string,
    id: string,
    allows: (current: WebhookRow) => boolean,
    change: (
      current: WebhookRow,
      tx: Transaction,
    ) => Promise<Prisma.WebhookUpdateInput>,
    actor: string,
    action: 'webhook.updated' | 'webhook.secret-rotated' | 'webhook.replayed',
  ): Promise<WebhookRow | 'stale' | undefined> {
    return this.database.prisma.$transaction(async (tx) => {
      const current = await this.locked(tx, tenantId, id);
      if (!current) return undefined;
      if (!allows(current)) return 'stale';
      const updated = await tx.webhook.update({
        where: { id },
        data: {
          ...(await change(current, tx)),
          revision: { increment: 1 },
          updatedAt: new Date(),
        },
        omit: OMIT,
      });
      await appendAdminEvent(tx, tenantId, {
        actor,
        action,
        target: `webhook:${id}`,
        before: { ...described(current), position: String(current.position) },
        after: { ...described(updated), position: String(updated.position) },
      });
      return updated;
    });
  }

  /** Removes a subscription (its delivery log with it); false when there is none, 'stale' when `allows` refused. */
  removeWebhook(
    tenantId: string,
    id: string,
    allows: (current: WebhookRow) => boolean,
    actor: string,
  ): Promise<boolean | 'stale'> {
    return this.database.prisma.$transaction(async (tx) => {
      const current = await this.locked(tx, tenantId, id);
      if (!current) return false;
      if (!allows(current)) return 'stale';
      await tx.webhook.delete({ where: { id } });
      await appendAdminEvent(tx, tenantId, {
        actor,
        action: 'webhook.deleted',
        target: `webhook:${id}`,
        before: described(current),
      });
      return true;
    });
  }

  /** The id of the tenant's first event at or after `since`, if any. */
  async firstEventSince(tenantId: string, since: Date): Promise<bigint | null> {
    const first = await this.database.prisma.identityEvent.findFirst({
      where: { tenantId, occurredAt: { gte: since } },
      orderBy: { id: 'asc' },
      select: { id: true },
    });
    return first?.id ?? null;
  }

  /**
   * How many wanted events wait for each subscription (the tenant's one
   * with `id`, or all of them), and since when, counted up to `cap`: one
   * query, whichever the number of subscriptions.
   */
  backlogs(
    only?: { tenantId: string; id: string },
    cap = 1_000_000,
  ): Promise<Backlog[]> {
    return this.database.prisma.$queryRaw<Backlog[]>`
      SELECT w.id, w.tenant_id AS "tenantId", w.status,
             w.last_delivered_at AS "lastDeliveredAt",
             b.backlog, b."oldestUndelivered"
        FROM webhook w
       CROSS JOIN LATERAL (
         SELECT count(*)::bigint AS backlog, min(x.occurred_at) AS "oldestUndelivered"
           FROM (SELECT e.occurred_at FROM identity_event e
                  WHERE e.tenant_id = w.tenant_id AND e.id > w.position
                    AND ('*' = ANY(w.event_types)
                         OR ('identity.' || e.type) = ANY(w.event_types))
                  ORDER BY e.id LIMIT ${cap}) AS x) AS b
       WHERE ${only ? Prisma.sql`w.tenant_id = ${only.tenantId} AND w.id = ${only.id}` : Prisma.sql`TRUE`}
       ORDER BY w.id`;
  }

  /** The delivery log, newest first, before attempt `beforeId`. */
  findAttempts(webhookId: string, beforeId: bigint | undefined, limit: number) {
    return this.database.prisma.webhookAttempt.findMany({
      where: {
        webhookId,
        ...(beforeId !== undefined && { id: { lt: beforeId } }),
      },
      orderBy: { id: 'desc' },
      take: limit,
      omit: { webhookId: true },
    });
  }

  // The statements of delivery.

  /**
   * Claims up to `limit` subscriptions due for delivery that have events
   * after their position and no live lease, for `owner` until the lease
   * runs out.
   */
  claim(owner: string, leaseMs: number, limit: number) {
    return this.database.prisma.$queryRaw<ClaimedWebhook[]>`
      UPDATE webhook AS w
         SET lease_owner = ${owner}, lease_until = now() + ${ms(leaseMs)}
       WHERE w.id IN (
         SELECT c.id FROM webhook c
          WHERE c.status IN ('active', 'retrying') AND c.next_attempt_at <= now()
            AND (c.lease_until IS NULL OR c.lease_until < now())
            AND EXISTS (SELECT 1 FROM identity_event e
                         WHERE e.tenant_id = c.tenant_id AND e.id > c.position)
          ORDER BY c.next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING w.id, w.tenant_id AS "tenantId", w.url, w.event_types AS "eventTypes",
                w.position, w.revision, w.secret,
                CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END
                  AS "previousSecret",
                w.failed_attempts AS "failedAttempts"`;
  }

  /** Up to `limit` events of the tenant after `position`, in order. */
  eventsAfter(
    tenantId: string,
    position: bigint,
    limit: number,
  ): Promise<DeliverableEvent[]> {
    return this.database.prisma.identityEvent.findMany({
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
    const [row] = await this.database.prisma.$queryRaw<
      Pick<ClaimedWebhook, 'secret' | 'previousSecret'>[]
    >`
      WITH moved AS (
        UPDATE webhook
           SET position = ${position}, lease_until = now() + ${ms(leaseMs)},
               last_delivered_at = CASE WHEN ${delivered} THEN now() ELSE last_delivered_at END,
               last_delivered_event_id = COALESCE(${last}::bigint, last_delivered_event_id),
               failed_attempts = CASE WHEN ${delivered} THEN 0 ELSE failed_attempts END,
               failing_since = CASE WHEN ${delivered} THEN NULL ELSE failing_since END,
               status = CASE WHEN ${delivered} THEN 'active' ELSE status END
         WHERE id = ${claim.id} AND lease_owner = ${owner}
           AND revision = ${claim.revision}
        RETURNING id, secret,
                  CASE WHEN previous_secret_until > now() THEN previous_secret END
                    AS "previousSecret"
      ), logged AS (
        INSERT INTO webhook_attempt (webhook_id, event_id, duration_ms, status, error)
        SELECT moved.id, a.event_id, a.duration_ms, a.status, a.error
          FROM moved,
               unnest(${attempts.map((a) => String(a.eventId))}::bigint[],
                      ${attempts.map((a) => a.attempt.durationMs)}::int[],
                      ${attempts.map((a) => a.attempt.status ?? null)}::int[],
                      ${attempts.map((a) => a.attempt.error ?? null)}::text[])
                 AS a(event_id, duration_ms, status, error)
      )
      SELECT secret, "previousSecret" FROM moved`;
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
    const [row] = await this.database.prisma.$queryRaw<{ status: string }[]>`
        UPDATE webhook
           SET failed_attempts = failed_attempts + 1,
               failing_since = COALESCE(failing_since, now()),
               next_attempt_at = now() + ${ms(delayMs)},
               last_error_at = now(), last_error = ${attempt.error ?? 'failed'},
               status = CASE
                 WHEN ${gone} THEN 'disabled'
                 WHEN COALESCE(failing_since, now()) <= now() - ${ms(retrySeconds * 1000)}
                   THEN 'failing'
                 ELSE 'retrying' END,
               enabled = enabled AND NOT ${gone},
               lease_owner = NULL, lease_until = NULL
         WHERE id = ${claim.id} AND lease_owner = ${owner}
           AND revision = ${claim.revision}
        RETURNING status`;
    return row?.status;
  }

  /** Gives the subscription back for any worker to claim. */
  async release(id: string, owner: string): Promise<void> {
    await this.database.prisma.$executeRaw`
      UPDATE webhook SET lease_owner = NULL, lease_until = NULL
       WHERE id = ${id} AND lease_owner = ${owner}`;
  }

  /** Drops delivery attempts older than `days`. */
  async pruneAttempts(days: number): Promise<number> {
    return this.database.prisma.$executeRaw`
      DELETE FROM webhook_attempt
       WHERE attempted_at < now() - ${ms(days * 86_400_000)}`;
  }

  private async locked(
    tx: Transaction,
    tenantId: string,
    id: string,
  ): Promise<WebhookRow | null> {
    await tx.$queryRaw`
      SELECT 1 FROM webhook WHERE tenant_id = ${tenantId} AND id = ${id} FOR UPDATE`;
    return tx.webhook.findFirst({ where: { tenantId, id }, omit: OMIT });
  }
}
