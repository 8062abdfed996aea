import type { WebhookConfig } from '../config/app-config';
import { traceContext } from '../common/trace-context';
import type { VersionTagger } from '../identity/identity-tags';
import { messageIdOf, payloadOf, wants } from './webhook-events';
import type { WebhookMetrics } from './webhook-metrics';
import { type AttemptResult, sendWebhook } from './webhook-sender';
import type {
  ClaimedWebhook,
  DeliverableEvent,
  WebhooksRepository,
} from './webhooks.repository';

/** Events read per claim of a subscription. */
export const BATCH = 100;

/**
 * The most events of a subscription sent past the position last written,
 * those under way included: what a crash may send again.
 */
export const UNSAVED_AT_MOST = 50;

/** Identities of one subscription whose events are sent at the same time. */
const PARALLEL = 8;

/** What one claim works with, besides the claim itself. */
export interface ClaimContext {
  webhooks: WebhooksRepository;
  config: WebhookConfig;
  metrics: WebhookMetrics;
  /** The lease owner: this instance. */
  owner: string;
  tag: VersionTagger;
  stopping: () => boolean;
}

interface Attempt {
  eventId: bigint;
  attempt: AttemptResult;
}

/**
 * One claim of a subscription: sends its events from its position, in
 * order per identity, up to PARALLEL identities at once, and moves the
 * position over the events delivered (or skipped) without a gap. An
 * attempt starts only on one of the first UNSAVED_AT_MOST wanted events
 * after the position written, so a crash sends no more again; only until
 * `claimMs` after the claim (then the subscription is given back, behind
 * the others); and never after a failure. Before an attempt that could
 * otherwise end past half the lease, the lease is renewed.
 */
export class ClaimRun {
  private readonly handled = new Set<bigint>();
  private readonly started = new Set<bigint>();
  /** Identities with an attempt under way. */
  private readonly busy = new Set<string>();
  private readonly underWay = new Set<Promise<void>>();
  private readonly wanted: DeliverableEvent[] = [];
  private secrets: { secret: string; previousSecret: string | null };
  private recorded: bigint;
  private renewedAt: number;
  private unlogged: Attempt[] = [];
  private recording?: Promise<boolean>;
  private failure?: Attempt;
  private lost = false;

  constructor(
    private readonly claim: ClaimedWebhook,
    private readonly claimedAt: number,
    private readonly events: DeliverableEvent[],
    private readonly context: ClaimContext,
  ) {
    this.secrets = {
      secret: claim.secret,
      previousSecret: claim.previousSecret,
    };
    this.recorded = claim.position;
    this.renewedAt = claimedAt;
    for (const event of events)
      if (wants(claim.eventTypes, event.type)) this.wanted.push(event);
      else this.handled.add(event.id);
  }

  /**
   * Sends what the claim may and writes the progress; the first failed
   * attempt, to be recorded as such, unless the claim was lost.
   */
  async run(): Promise<AttemptResult | undefined> {
    try {
      for (;;) {
        const event = this.mayStart() ? await this.next() : undefined;
        if (event) this.start(event);
        else if (this.underWay.size) await Promise.race(this.underWay);
        else break;
      }
    } finally {
      // A failed write gives the subscription back only once nothing of
      // this claim is on its way: never two senders of its events at once.
      await Promise.allSettled(this.underWay);
    }
    if (!(await this.record())) return undefined;
    return this.failure?.attempt;
  }

  private mayStart(): boolean {
    return (
      !this.failure &&
      !this.lost &&
      !this.context.stopping() &&
      this.underWay.size < PARALLEL &&
      performance.now() - this.claimedAt < this.context.config.claimMs
    );
  }

  /** The next event to send, the progress written first when it must be. */
  private async next(): Promise<DeliverableEvent | undefined> {
    const { leaseMs, timeoutMs } = this.context.config;
    const late = performance.now() - this.renewedAt + timeoutMs > leaseMs / 2;
    const window = this.window();
    const event = this.startable(window);
    // Every event of the window sent: writing the position opens it further.
    const full =
      window.length === UNSAVED_AT_MOST &&
      window.every((e) => this.started.has(e.id)) &&
      this.reached() !== this.recorded;
    if (!late && !full) return event;
    if (!(await this.record(late))) this.lost = true;
    return this.mayStart() ? this.startable(this.window()) : undefined;
  }

  /** The first UNSAVED_AT_MOST wanted events after the position written. */
  private window(): DeliverableEvent[] {
    const after = this.wanted.findIndex((e) => e.id > this.recorded);
    return after < 0 ? [] : this.wanted.slice(after, after + UNSAVED_AT_MOST);
  }

  /**
   * The window's first event not started whose identity has nothing under
   * way or waiting before it.
   */
  private startable(window: DeliverableEvent[]): DeliverableEvent | undefined {
    const blocked = new Set(this.busy);
    for (const event of window) {
      if (this.started.has(event.id)) continue;
      if (!blocked.has(event.identityId)) return event;
      blocked.add(event.identityId);
    }
    return undefined;
  }

  private start(event: DeliverableEvent): void {
    this.started.add(event.id);
    this.busy.add(event.identityId);
    const work: Promise<void> = this.send(event).finally(() => {
      this.busy.delete(event.identityId);
      this.underWay.delete(work);
    });
    this.underWay.add(work);
    // Its failure reaches run() through underWay; never an unhandled one.
    work.catch(() => undefined);
  }

  private async send(event: DeliverableEvent): Promise<void> {
    const { config, metrics, tag } = this.context;
    // Part of the trace of the change it tells of, when that had one.
    const attempt = await traceContext.within(event.traceParent, () =>
      sendWebhook({
        url: this.claim.url,
        allowPrivate: config.privateNetworkTenants.includes(
          this.claim.tenantId,
        ),
        messageId: messageIdOf(event.id),
        body: JSON.stringify(payloadOf(event, tag)),
        secrets: this.secrets,
        timeoutMs: config.timeoutMs,
      }),
    );
    metrics.attempted(attempt, event.occurredAt);
    this.unlogged.push({ eventId: event.id, attempt });
    if (attempt.ok) this.handled.add(event.id);
    else this.failure ??= { eventId: event.id, attempt };
  }

  /** The last event before the first one not handled. */
  private reached(): bigint {
    let position = this.claim.position;
    for (const event of this.events) {
      if (!this.handled.has(event.id)) break;
      position = event.id;
    }
    return position;
  }

  /** Writes the progress so far (and renews the lease); false when the claim is lost. */
  private record(renew = false): Promise<boolean> {
    return (this.recording ??= this.write(renew).finally(
      () => (this.recording = undefined),
    ));
  }

  private async write(renew: boolean): Promise<boolean> {
    const position = this.reached();
    if (!renew && position === this.recorded && !this.unlogged.length)
      return true;
    const sentAt = performance.now();
    const logged = this.unlogged;
    this.unlogged = [];
    let next: Awaited<ReturnType<WebhooksRepository['progressed']>>;
    try {
      next = await this.context.webhooks.progressed(
        this.claim,
        this.context.owner,
        position,
        logged,
        this.context.config.leaseMs,
      );
    } catch (error) {
      // Not written: kept for the next write.
      this.unlogged = [...logged, ...this.unlogged];
      throw error;
    }
    if (logged.some((a) => a.attempt.ok)) this.claim.failedAttempts = 0;
    if (!next) return false;
    this.recorded = position;
    this.renewedAt = sentAt;
    this.secrets = next;
    return true;
  }
}
