import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { IdentityTags } from '../identity/identity-tags';
import { messageIdOf, payloadOf, wants } from './webhook-events';
import { WebhookMetrics } from './webhook-metrics';
import { type AttemptResult, sendWebhook } from './webhook-sender';
import { type ClaimedWebhook, WebhooksRepository } from './webhooks.repository';

/** Events read per claim of a subscription. */
const BATCH = 100;

/** Deliveries between two writes of a subscription's progress. */
const PROGRESS_EVERY = 50;

/** Identities of one subscription whose events are sent at the same time. */
const PARALLEL = 8;

/** How often an instance drops delivery attempts past their time. */
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The delay before the next attempt after `failures` failures in a row:
 * exponential from `baseMs`, at most `maxMs`, with "equal jitter" (half
 * fixed, half random) so receivers coming back are not hit by every
 * subscription at once; at least what the receiver asked for in
 * Retry-After, within the same maximum.
 */
export function retryDelay(
  failures: number,
  baseMs: number,
  maxMs: number,
  retryAfterMs = 0,
  random = Math.random,
): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 40));
  const jittered = exponential / 2 + (random() * exponential) / 2;
  return Math.round(Math.min(maxMs, Math.max(jittered, retryAfterMs)));
}

/**
 * Delivers the change log to webhook subscriptions (docs/operations.md,
 * delivering webhooks). Every instance runs it: it claims due
 * subscriptions with a lease in PostgreSQL (FOR UPDATE SKIP LOCKED), sends
 * each one's events from its position, in order per identity, and moves
 * the position past the delivered ones (in one statement with their log);
 * a failure ends the claim with the next attempt's time. Each step is fenced by the lease and the settings'
 * revision, and an attempt always ends (WEBHOOK_TIMEOUT_MS) well before the
 * lease it started under, so no event is ever sent twice at the same time;
 * a killed instance's lease runs out and another goes on from the same
 * position (at least once).
 */
@Injectable()
export class WebhookDelivery
  implements OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger('Webhooks');
  /** This instance, as leases name it. */
  private readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly running = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private stopping = false;
  private polling?: Promise<void>;
  private lastPrune = 0;

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly tags: IdentityTags,
    private readonly config: AppConfig,
    private readonly metrics: WebhookMetrics,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.webhooks.deliver) this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.polling;
    await Promise.allSettled(this.running);
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => (this.polling = undefined));
    }, delayMs);
    this.timer.unref();
  }

  /** Claims what this instance has room for and delivers it; then waits, or at once when work may remain. */
  private async poll(): Promise<void> {
    let again = false;
    try {
      await this.prune();
      const room = this.config.webhooks.concurrency - this.running.size;
      if (room > 0) {
        const claimedAt = performance.now();
        const claimed = await this.webhooks.claim(
          this.owner,
          this.config.webhooks.leaseMs,
          room,
        );
        for (const claim of claimed) {
          const work: Promise<void> = this.deliver(claim, claimedAt).then(
            () => {
              this.running.delete(work);
              // A subscription given back may have more: look again soon.
              if (!this.stopping && !this.polling) this.schedule(0);
            },
            (error: unknown) => {
              // Not again at once: the next poll, as after any failure.
              this.running.delete(work);
              this.logger.error(
                `webhook ${claim.id}: ${(error as Error).message}`,
              );
            },
          );
          this.running.add(work);
        }
        again = claimed.length === room;
      }
    } catch (error) {
      // The database is away: try again at the next poll.
      this.logger.warn(`webhook delivery: ${(error as Error).message}`);
    }
    this.schedule(again ? 0 : this.config.webhooks.pollMs);
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.webhooks.pruneAttempts(this.config.webhooks.logDays);
  }

  /**
   * Sends one claimed subscription's next events, then gives it back.
   * Events of one identity go one after the other, in order; up to
   * PARALLEL identities at once. The position moves over the events
   * delivered (or skipped) without a gap, every PROGRESS_EVERY deliveries,
   * before a failure is written and at the end; after a failure no
   * attempt starts, and the ones under way end. Whatever was delivered
   * past the position is sent again later, which at least once allows.
   * Before each attempt the lease is renewed if the attempt could
   * otherwise end past half of it.
   */
  private async deliver(
    claim: ClaimedWebhook,
    claimedAt: number,
  ): Promise<void> {
    let handedOver = false;
    try {
      await this.deliverClaimed(claim, claimedAt, () => (handedOver = true));
    } finally {
      if (!handedOver) await this.webhooks.release(claim.id, this.owner);
    }
  }

  private async deliverClaimed(
    claim: ClaimedWebhook,
    claimedAt: number,
    handOver: () => void,
  ): Promise<void> {
    const { leaseMs, timeoutMs } = this.config.webhooks;
    let secrets = {
      secret: claim.secret,
      previousSecret: claim.previousSecret,
    };
    const events = await this.webhooks.eventsAfter(
      claim.tenantId,
      claim.position,
      BATCH,
    );
    const tag = await this.tags.tagger();
    /** Events handled: delivered, or skipped as a type not wanted. */
    const handled = new Set<bigint>();
    const chains = new Map<string, typeof events>();
    for (const event of events)
      if (!wants(claim.eventTypes, event.type)) handled.add(event.id);
      else
        chains.set(event.identityId, [
          ...(chains.get(event.identityId) ?? []),
          event,
        ]);
    let renewedAt = claimedAt;
    let recorded = claim.position;
    let unlogged: { eventId: bigint; attempt: AttemptResult }[] = [];
    let stopped = false;
    let failure: { eventId: bigint; attempt: AttemptResult } | undefined;
    let recording: Promise<boolean> | undefined;
    /** The last event before the first one not handled. */
    const reached = () => {
      let position = claim.position;
      for (const event of events) {
        if (!handled.has(event.id)) break;
        position = event.id;
      }
      return position;
    };
    /** Writes the progress so far; false when the claim is lost. */
    const record = (): Promise<boolean> =>
      (recording ??= (async () => {
        const position = reached();
        if (position === recorded && !unlogged.length) return true;
        const sentAt = performance.now();
        const logged = unlogged;
        unlogged = [];
        const next = await this.webhooks.progressed(
          claim,
          this.owner,
          position,
          logged,
          leaseMs,
        );
        recorded = position;
        if (logged.some((a) => a.attempt.ok)) claim.failedAttempts = 0;
        if (!next) return false;
        renewedAt = sentAt;
        secrets = next;
        return true;
      })().finally(() => (recording = undefined)));
    const run = async (chain: typeof events) => {
      for (const event of chain) {
        if (stopped || this.stopping) return;
        const late = performance.now() - renewedAt + timeoutMs > leaseMs / 2;
        if (late || unlogged.length >= PROGRESS_EVERY || recording)
          if (!(await record())) stopped = true;
        if (stopped || this.stopping) return;
        const attempt = await sendWebhook({
          url: claim.url,
          allowPrivate: this.config.webhooks.privateNetworkTenants.includes(
            claim.tenantId,
          ),
          messageId: messageIdOf(event.id),
          body: JSON.stringify(payloadOf(event, tag)),
          secrets,
          timeoutMs,
        });
        this.metrics.attempted(attempt, event.occurredAt);
        unlogged.push({ eventId: event.id, attempt });
        if (!attempt.ok) {
          failure ??= { eventId: event.id, attempt };
          stopped = true;
          return;
        }
        handled.add(event.id);
      }
    };
    const queue = [...chains.values()];
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
        for (let chain = queue.shift(); chain; chain = queue.shift())
          await run(chain);
      }),
    );
    if (!(await record()) || !failure) return;
    await this.failed(claim, failure.attempt);
    handOver();
  }

  private async failed(
    claim: ClaimedWebhook,
    attempt: AttemptResult,
  ): Promise<void> {
    const { retryBaseMs, retryMaxMs, retrySeconds } = this.config.webhooks;
    const gone = attempt.status === 410;
    const status = await this.webhooks.failed(
      claim,
      this.owner,
      attempt,
      retryDelay(
        claim.failedAttempts + 1,
        retryBaseMs,
        retryMaxMs,
        attempt.retryAfterMs,
      ),
      retrySeconds,
      gone,
    );
    if (status === undefined) await this.webhooks.release(claim.id, this.owner);
    else if (status === 'failing' || status === 'disabled')
      this.logger.warn(
        `webhook ${claim.id} of tenant ${claim.tenantId} is ${status}: ${attempt.error}`,
      );
  }
}
