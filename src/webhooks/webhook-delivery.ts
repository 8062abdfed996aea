import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { IdentityTags } from '../identity/identity-tags';
import { BATCH, ClaimRun } from './webhook-claim';
import { WebhookMetrics } from './webhook-metrics';
import type { AttemptResult } from './webhook-sender';
import { type ClaimedWebhook, WebhooksRepository } from './webhooks.repository';

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
 * each one's events from its position (ClaimRun), and gives it back
 * behind the others waiting; a failure ends the claim with the next
 * attempt's time. Tenants share the instance: one holds at most
 * WEBHOOK_TENANT_CONCURRENCY of its slots, and a claim starts attempts for
 * WEBHOOK_CLAIM_MS at most. Each step is fenced by the lease and the
 * settings' revision, and an attempt always ends (WEBHOOK_TIMEOUT_MS) well
 * before the lease it started under, so no event is ever sent twice at the
 * same time; a killed instance's lease runs out and another goes on from
 * the same position (at least once).
 */
@Injectable()
export class WebhookDelivery
  implements OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger('Webhooks');
  /** This instance, as leases name it. */
  private readonly owner = `${process.pid}-${randomUUID()}`;
  /** The deliveries under way, with their subscription's tenant. */
  private readonly running = new Map<Promise<void>, string>();
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
    await Promise.allSettled(this.running.keys());
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
          {
            tenantLimit: this.config.webhooks.tenantConcurrency,
            held: [...this.running.values()],
          },
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
          this.running.set(work, claim.tenantId);
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
   * Sends one claimed subscription's next events (ClaimRun), then gives it
   * back, or records the failure that ended the claim.
   */
  private async deliver(
    claim: ClaimedWebhook,
    claimedAt: number,
  ): Promise<void> {
    let handedOver = false;
    try {
      const events = await this.webhooks.eventsAfter(
        claim.tenantId,
        claim.position,
        BATCH,
      );
      const failure = await new ClaimRun(claim, claimedAt, events, {
        webhooks: this.webhooks,
        config: this.config.webhooks,
        metrics: this.metrics,
        owner: this.owner,
        tag: await this.tags.tagger(),
        stopping: () => this.stopping,
      }).run();
      if (failure) {
        await this.failed(claim, failure);
        handedOver = true;
      }
    } finally {
      if (!handedOver) await this.webhooks.release(claim.id, this.owner);
    }
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
