import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { Metrics } from '../ops/metrics';
import type { AttemptResult } from './webhook-sender';
import { WebhooksRepository } from './webhooks.repository';

/**
 * The webhooks' Prometheus metrics, in the service's registry: attempts and
 * end-to-end lag as this instance sees them, and per subscription (read
 * from the database when scraped, the same on every instance) the backlog,
 * the age of the oldest undelivered event and the last delivery.
 */
@Injectable()
export class WebhookMetrics {
  private readonly attempts: Counter<'result'>;
  private readonly lag: Histogram;

  constructor(metrics: Metrics, webhooks: WebhooksRepository) {
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
    const labelNames = ['tenant', 'webhook', 'status'] as const;
    // One read of the database per scrape serves the three gauges, which
    // prom-client collects at the same time.
    let reading: { at: number; rows: Promise<Figures[]> } | undefined;
    const read = () => {
      if (!reading || Date.now() - reading.at > 1000)
        reading = { at: Date.now(), rows: figuresOf(webhooks) };
      return reading.rows;
    };
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
          this.reset();
          for (const row of await read()) {
            const v = value(row);
            if (v !== undefined) this.set(row.labels, v);
          }
        },
      });
    gauge(
      'webhook_backlog_events',
      'Events waiting to be delivered to each webhook (counted up to 1,000,000).',
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
  labels: { tenant: string; webhook: string; status: string };
  backlog: number;
  oldestSeconds: number;
  lastDelivery?: number;
}

/** Every subscription's figures; none while the database does not answer (/metrics still does). */
async function figuresOf(webhooks: WebhooksRepository): Promise<Figures[]> {
  const rows = await webhooks.backlogs().catch(() => []);
  return rows.map((row) => ({
    labels: { tenant: row.tenantId, webhook: row.id, status: row.status },
    backlog: Number(row.backlog),
    oldestSeconds: row.oldestUndelivered
      ? Math.max(0, Date.now() - row.oldestUndelivered.getTime()) / 1000
      : 0,
    lastDelivery: row.lastDeliveredAt
      ? row.lastDeliveredAt.getTime() / 1000
      : undefined,
  }));
}
