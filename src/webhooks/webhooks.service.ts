import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { invalid, invalidFields, tagOf } from '../admin/admin-rules';
import {
  PreconditionFailed,
  TooManyRequests,
  WebhookNotFound,
} from '../common/errors';
import { ifMatchAllows } from '../common/http/if-match';
import {
  int8Key,
  invalidCursor,
  pageFrom,
  type Collection,
  type Page,
} from '../common/pagination';
import { AppConfig } from '../config/app-config';
import { ALL_EVENT_TYPES } from './webhook-events';
import { webhookUrlProblem } from './webhook-sender';
import {
  MAX_OVERLAP_SECONDS,
  type ReplayRequest,
  type WebhookPatch,
  type WebhookRequest,
  WEBHOOK_ID,
} from './webhooks.dto';
import {
  type WebhookAction,
  type WebhookChange,
  type WebhookRefusal,
  WebhooksRepository,
  type WebhookRow,
} from './webhooks.repository';

/** The most subscriptions a tenant has. */
export const MAX_WEBHOOKS = 20;

/** Subscriptions are listed by id, which sorts by creation. */
export const WEBHOOKS_ORDER = ['id'] as const;

/** Attempts are listed newest first. */
export const ATTEMPTS_ORDER = ['id'] as const;

/** How long a rotated-out secret goes on signing unless the request says. */
export const DEFAULT_OVERLAP_SECONDS = 86400;

/** A subscription as the admin API and the command line show it: never its secret. */
export interface WebhookView {
  id: string;
  url: string;
  eventTypes: string[];
  description?: string;
  enabled: boolean;
  status: string;
  createdAt: string;
  updatedAt: string;
  secretCreatedAt: string;
  previousSecretExpiresAt?: string;
}

export interface WebhookStatusView {
  status: string;
  position: string;
  backlog: number;
  oldestUndeliveredAt?: string;
  lagSeconds?: number;
  lastDeliveredAt?: string;
  lastDeliveredEventId?: string;
  lastErrorAt?: string;
  lastError?: string;
  failedAttempts: number;
  failingSince?: string;
  nextAttemptAt?: string;
}

export interface WebhookAttemptView {
  id: string;
  eventId: string;
  attemptedAt: string;
  durationMs: number;
  status?: number;
  error?: string;
  eventOccurredAt?: string;
}

export function webhookView(row: WebhookRow, now = new Date()): WebhookView {
  const view: WebhookView = {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes,
    ...(row.description !== null && { description: row.description }),
    enabled: row.enabled,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    secretCreatedAt: row.secretCreatedAt.toISOString(),
  };
  if (row.previousSecretUntil && row.previousSecretUntil > now)
    view.previousSecretExpiresAt = row.previousSecretUntil.toISOString();
  return view;
}

/** A new id: `wh_`, the time in ms (10 characters of base 32), 16 random ones; sorts by creation. */
export function newWebhookId(now = Date.now()): string {
  const random = [...randomBytes(16)].map((b) => (b % 32).toString(32));
  return `wh_${now.toString(32).padStart(10, '0')}${random.join('')}`;
}

/** A signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const iso = (value: Date | null) => value?.toISOString();

/** The answer to a refused change of a subscription. */
function refusal(refused: WebhookRefusal): Error {
  switch (refused.refused) {
    case 'stale':
      return new PreconditionFailed('the current ETag of the webhook');
    case 'full':
      return invalid(
        'url',
        `is one more than the ${refused.max} webhooks a tenant may have`,
      );
    case 'exists':
      // A new id is drawn at random: one taken is the service's fault.
      return new Error('A new webhook id is taken.');
  }
}

const isRefusal = (value: object): value is WebhookRefusal =>
  'refused' in value;

/**
 * What a change of subscription `id` made: its 404 when there is none, the
 * answer of its refusal when it was refused.
 */
function made<T extends object>(
  id: string,
  result: T | WebhookRefusal | null,
): T {
  if (!result) throw new WebhookNotFound(id);
  if (isRefusal(result)) throw refusal(result);
  return result;
}

/**
 * A tenant's webhook subscriptions (docs/api.md, webhooks), for the admin
 * API and the command line alike: each change in the audit log, never a
 * secret in an answer but the one that makes or rotates it.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly config: AppConfig,
  ) {}

  async listWebhooks(
    tenantId: string,
    page: Page,
  ): Promise<Collection<WebhookView[]>> {
    const limit = page.limit ?? 100;
    const after = page.after?.[0];
    if (after !== undefined && !WEBHOOK_ID.test(after)) throw invalidCursor();
    const rows = await this.webhooks.findWebhooks(tenantId, after, limit + 1);
    const { items, next } = pageFrom(rows, { limit }, (row) => [row.id]);
    const now = new Date();
    return { items: items.map((row) => webhookView(row, now)), next };
  }

  async webhook(tenantId: string, id: string): Promise<WebhookView> {
    return webhookView(await this.find(tenantId, id));
  }

  async createWebhook(
    tenantId: string,
    body: WebhookRequest,
    actor: string,
  ): Promise<WebhookView & { secret: string }> {
    this.checkUrl(tenantId, body.url);
    const secret = newSecret();
    const id = newWebhookId();
    const row = await this.webhooks.createWebhook(
      tenantId,
      {
        id,
        url: body.url,
        eventTypes: eventTypesOf(body.eventTypes),
        description: body.description ?? null,
        enabled: body.enabled ?? true,
        status: body.enabled === false ? 'disabled' : 'active',
        secret,
      },
      actor,
      MAX_WEBHOOKS,
    );
    return { ...webhookView(made(id, row)), secret };
  }

  /** Changes the settings `patch` names; 412 when If-Match names others. */
  async updateWebhook(
    tenantId: string,
    id: string,
    patch: WebhookPatch,
    ifMatch: string | undefined,
    actor: string,
  ): Promise<WebhookView> {
    if (patch.url !== undefined) this.checkUrl(tenantId, patch.url);
    return this.change(
      tenantId,
      id,
      ifMatch,
      actor,
      'webhook.updated',
      (current) => patched(current, patch),
    );
  }

  async removeWebhook(
    tenantId: string,
    id: string,
    ifMatch: string | undefined,
    actor: string,
  ): Promise<void> {
    made(
      id,
      await this.webhooks.removeWebhook(tenantId, id, matching(ifMatch), actor),
    );
  }

  /**
   * A new secret; the previous one goes on signing beside it for
   * `overlapSeconds`, so receivers can take the new one without missing a
   * delivery.
   */
  async rotateSecret(
    tenantId: string,
    id: string,
    overlapSeconds = DEFAULT_OVERLAP_SECONDS,
    ifMatch: string | undefined,
    actor: string,
  ): Promise<{ secret: string; previousSecretExpiresAt?: string }> {
    if (overlapSeconds > MAX_OVERLAP_SECONDS)
      throw invalid('overlapSeconds', `must be at most ${MAX_OVERLAP_SECONDS}`);
    const secret = newSecret();
    const now = new Date();
    const until = new Date(now.getTime() + overlapSeconds * 1000);
    const row = await this.change(
      tenantId,
      id,
      ifMatch,
      actor,
      'webhook.secret-rotated',
      (current) => ({
        secret,
        secretCreatedAt: now,
        previousSecret: overlapSeconds > 0 ? current.secret : null,
        previousSecretUntil: overlapSeconds > 0 ? until : null,
      }),
    );
    return {
      secret,
      ...(row.previousSecretExpiresAt && {
        previousSecretExpiresAt: row.previousSecretExpiresAt,
      }),
    };
  }

  /**
   * Delivers again from an event id or a time: the position moves back
   * (never forward: nothing is skipped by a replay). The events are sent
   * with their own ids, which a receiver that de-duplicates has seen.
   */
  async replay(
    tenantId: string,
    id: string,
    request: ReplayRequest,
    actor: string,
  ): Promise<WebhookStatusView> {
    if ((request.fromEventId === undefined) === (request.since === undefined))
      throw invalidFields([
        { field: 'fromEventId', message: 'or since must be given, not both' },
      ]);
    let from: bigint | null;
    if (request.fromEventId !== undefined) from = BigInt(request.fromEventId);
    else {
      const since = new Date(request.since!);
      if (Number.isNaN(since.getTime()))
        throw invalid('since', 'must be a valid date-time');
      from = await this.webhooks.firstEventSince(tenantId, since);
    }
    const start = from;
    // A replay takes no If-Match: it goes ahead on any settings.
    await this.change(
      tenantId,
      id,
      undefined,
      actor,
      'webhook.replayed',
      (current) => {
        const now = new Date();
        this.refuseEarlyReplay(current, now);
        return start !== null && start - 1n < current.position
          ? { position: start - 1n, nextAttemptAt: now, replayedAt: now }
          : { replayedAt: now };
      },
    );
    return this.status(tenantId, id);
  }

  /**
   * 429 while the subscription's last replay is less than
   * WEBHOOK_REPLAY_SECONDS ago: each replay sends the events again and logs
   * each attempt, so back-to-back replays would grow the delivery log
   * without bound. Thrown in the replay's transaction, which then changes
   * nothing.
   */
  private refuseEarlyReplay(current: WebhookRow, now: Date): void {
    const everyMs = this.config.quotas.webhookReplaySeconds * 1000;
    if (!current.replayedAt) return;
    const waitMs = current.replayedAt.getTime() + everyMs - now.getTime();
    if (waitMs > 0) throw new TooManyRequests(Math.ceil(waitMs / 1000));
  }

  /** The live figures of the subscription's delivery. */
  async status(tenantId: string, id: string): Promise<WebhookStatusView> {
    const row = await this.find(tenantId, id);
    const [{ backlog, oldestUndelivered }] = await this.webhooks.backlogs({
      tenantId,
      id,
    });
    const view: WebhookStatusView = {
      status: row.status,
      position: String(row.position),
      backlog: Number(backlog),
      failedAttempts: row.failedAttempts,
    };
    if (oldestUndelivered) {
      view.oldestUndeliveredAt = oldestUndelivered.toISOString();
      view.lagSeconds =
        Math.max(0, Date.now() - oldestUndelivered.getTime()) / 1000;
    }
    const optional = {
      lastDeliveredAt: iso(row.lastDeliveredAt),
      lastDeliveredEventId: row.lastDeliveredEventId?.toString(),
      lastErrorAt: iso(row.lastErrorAt),
      lastError: row.lastError ?? undefined,
      failingSince: iso(row.failingSince),
      nextAttemptAt:
        row.status === 'retrying' ? iso(row.nextAttemptAt) : undefined,
    };
    for (const [key, value] of Object.entries(optional))
      if (value !== undefined) Object.assign(view, { [key]: value });
    return view;
  }

  /** The delivery log, newest first. */
  async attempts(
    tenantId: string,
    id: string,
    page: Page,
  ): Promise<Collection<WebhookAttemptView[]>> {
    await this.find(tenantId, id);
    const limit = page.limit ?? 100;
    const before = page.after && int8Key(page.after[0]);
    const rows = await this.webhooks.findAttempts(id, before, limit + 1);
    const { items, next } = pageFrom(rows, { limit }, (row) => [
      String(row.id),
    ]);
    return {
      items: items.map((row) => {
        const view: WebhookAttemptView = {
          id: String(row.id),
          eventId: String(row.eventId),
          attemptedAt: row.attemptedAt.toISOString(),
          durationMs: row.durationMs,
        };
        if (row.status !== null) view.status = row.status;
        if (row.error !== null) view.error = row.error;
        if (row.eventOccurredAt !== null)
          view.eventOccurredAt = row.eventOccurredAt.toISOString();
        return view;
      }),
      next,
    };
  }

  private checkUrl(tenantId: string, url: string): void {
    const problem = webhookUrlProblem(
      url,
      this.config.egressPrivateNetworkTenants.includes(tenantId),
    );
    if (problem) throw invalid('url', problem);
  }

  /**
   * Writes what `change` makes of the subscription, locked, when If-Match
   * names its current settings: its view then; 404 or 412 otherwise.
   */
  private async change(
    tenantId: string,
    id: string,
    ifMatch: string | undefined,
    actor: string,
    action: WebhookAction,
    change: (current: WebhookRow) => WebhookChange,
  ): Promise<WebhookView> {
    const row = await this.webhooks.changeWebhook(
      tenantId,
      id,
      matching(ifMatch),
      actor,
      action,
      change,
    );
    return webhookView(made(id, row));
  }

  private async find(tenantId: string, id: string): Promise<WebhookRow> {
    const row = WEBHOOK_ID.test(id)
      ? await this.webhooks.findWebhook(tenantId, id)
      : null;
    if (!row) throw new WebhookNotFound(id);
    return row;
  }
}

/** Whether If-Match (absent: any) names the subscription's current settings. */
const matching = (ifMatch: string | undefined) => (current: WebhookRow) =>
  ifMatchAllows(ifMatch, tagOf(webhookView(current)));

/** What `patch` changes of the subscription `current`. */
function patched(current: WebhookRow, patch: WebhookPatch): WebhookChange {
  return {
    ...(patch.url !== undefined && { url: patch.url }),
    ...(patch.eventTypes !== undefined && {
      eventTypes: eventTypesOf(patch.eventTypes),
    }),
    ...(patch.description !== undefined && {
      description: patch.description,
    }),
    ...(patch.enabled === false && { enabled: false, status: 'disabled' }),
    // Enabling again resumes from the position, with a clean slate.
    ...(patch.enabled === true &&
      (!current.enabled || current.status !== 'active') && {
        enabled: true,
        status: 'active',
        failingSince: null,
        failedAttempts: 0,
        nextAttemptAt: new Date(),
      }),
  };
}

/** The stored form of a request's types: `*` alone when it is among them, each once. */
function eventTypesOf(types: string[] | undefined): string[] {
  if (!types || types.includes(ALL_EVENT_TYPES)) return [ALL_EVENT_TYPES];
  return [...new Set(types)];
}
