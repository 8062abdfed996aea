import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../ops/metrics';
import { SharedReading } from '../ops/shared-reading';
import type { AttemptResult } from './webhook-sender';
import { WebhooksRepository } from './webhooks.repository';

/**
 * How far a scrape counts each subscription's backlog: a replayed
 * subscription may wait for millions of events, and an unbounded count
 * would make every scrape read them all. At the cap the gauge says "at
 * least this many".
 */
export const BACKLOG_METRIC_CAP = 10_000;

/**
 * The webhooks' Prometheus metrics, in the service's registry: attempts and
 * end-to-end lag as this instance sees them, and per subscription (read
 * from the database when scraped, the same on every instance) the backlog,
 * the age of the oldest undelivered event and the last delivery. Tenant
 * ids label them only when the operator asks (METRICS_TENANT_LABELS).
 */
@Injectable()
export class WebhookMetrics {
  private readonly attempts: Counter<'result'>;
  private readonly lag: Histogram;

  constructor(
    metrics: Metrics,
    webhooks: WebhooksRepository,
    { metrics: settings }: AppConfig,
  ) {
    const registers = [metrics.registry];
    this.attempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts made by this instance, by result: delivered or failed.',
      labelNames: ['result'] as const,
      registers,
    });
    this.lag = new Histogram({
      name: 'webhook_delivery_lag_seconds',
      help: 'From an event’s commit to its delivery’s 2xx answer, as this instance delivered them.',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
      registers,
    });
    const labelNames = settings.tenantLabels
      ? ['tenant', 'webhook', 'status']
      : ['webhook', 'status'];
    // One query at a time serves the three gauges and every scrape in the
    // window, however often and however many at once they come.
    const figures = new SharedReading(
      () => figuresOf(webhooks, settings.tenantLabels),
      settings.cacheMs,
    );
    const gauge = (
      name: string,
      help: string,
      value: (row: Figures) => number | undefined,
    ) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          const rows = await figures.get();
          this.reset();
          for (const row of rows) {
            const v = value(row);
            if (v !== undefined) this.set(row.labels, v);
          }
        },
      });
    gauge(
      'webhook_backlog_events',
      `Events waiting to be delivered to each webhook, among the next ${BACKLOG_METRIC_CAP} of its tenant: ${BACKLOG_METRIC_CAP} means at least that many.`,
      (row) => row.backlog,
    );
    gauge(
      'webhook_oldest_undelivered_seconds',
      'Age of the oldest event not yet delivered to each webhook (0 when none waits).',
      (row) => row.oldestSeconds,
    );
    gauge(
      'webhook_last_delivery_timestamp_seconds',
      'When each webhook last received an event, in seconds since the epoch.',
      (row) => row.lastDelivery,
    );
  }

  attempted(attempt: AttemptResult, occurredAt: Date): void {
    this.attempts.inc({ result: attempt.ok ? 'delivered' : 'failed' });
    if (attempt.ok)
      this.lag.observe(Math.max(0, Date.now() - occurredAt.getTime()) / 1000);
  }
}

interface Figures {
  labels: Record<string, string>;
  backlog: number;
  oldestSeconds: number;
  lastDelivery?: number;
}

/** Every subscription's figures; none while the database does not answer (/metrics still does). */
async function figuresOf(
  webhooks: WebhooksRepository,
  tenantLabels: boolean,
): Promise<Figures[]> {
  const rows = await webhooks
    .backlogs(undefined, BACKLOG_METRIC_CAP)
    .catch(() => []);
  return rows.map((row) => ({
    labels: {
      ...(tenantLabels && { tenant: row.tenantId }),
      webhook: row.id,
      status: row.status,
    },
    backlog: Number(row.backlog),
    oldestSeconds: row.oldestUndelivered
      ? Math.max(0, Date.now() - row.oldestUndelivered.getTime()) / 1000
      : 0,
    lastDelivery: row.lastDeliveredAt
      ? row.lastDeliveredAt.getTime() / 1000
      : undefined,
  }));
}
