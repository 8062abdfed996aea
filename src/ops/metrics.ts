import { Inject, Injectable } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import { Database } from '../database/database';
import { REDIS } from './redis/redis.module';
import type { SharedRedis } from './redis/shared-redis';

/** Methods that change nothing. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The service's Prometheus metrics: requests and their durations by route
 * template (never a raw path, which would carry ids), database pool figures,
 * and the process figures prom-client collects.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [
      0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
    ],
    registers: [this.registry],
  });

  private readonly reads = new Counter({
    name: 'db_reads_total',
    help: 'GET requests of the API by the database they read from: primary or replica.',
    labelNames: ['target'] as const,
    registers: [this.registry],
  });
  private readonly readsBy = {
    primary: this.reads.labels({ target: 'primary' }),
    replica: this.reads.labels({ target: 'replica' }),
  };

  private readonly writesFailed = new Counter({
    name: 'db_writes_failed_total',
    help: 'Requests that change data (any method but GET, HEAD and OPTIONS) answered 503 because the database could not take them: no primary reachable, or one that has turned read-only.',
    registers: [this.registry],
  });

  constructor(database: Database, @Inject(REDIS) redis: SharedRedis | null) {
    collectDefaultMetrics({ register: this.registry });
    const primary = database.primaryFigures;
    if (primary) {
      let counted = 0;
      new Counter({
        name: 'db_primary_changes_total',
        help: 'Times the pool moved to another server of DATABASE_URL after the first it connected to (a failover, a switchover).',
        registers: [this.registry],
        collect() {
          const changes = primary().changes;
          this.inc(changes - counted);
          counted = changes;
        },
      });
    }
    if (redis)
      new Gauge({
        name: 'redis_available',
        help: 'Whether this instance uses the shared Redis (1), or falls back while it does not answer (0).',
        registers: [this.registry],
        collect() {
          this.set(redis.available ? 1 : 0);
        },
      });
    const replicas = database.replicas;
    if (replicas)
      new Gauge({
        name: 'db_replica_lag_seconds',
        help: 'How far behind the primary each replica may be, as this instance measures it (+Inf while it is not read).',
        labelNames: ['replica'] as const,
        registers: [this.registry],
        collect() {
          replicas.replicas.forEach((replica, i) =>
            this.set(
              { replica: String(i + 1) },
              replicas.stalenessMs(replica) / 1000,
            ),
          );
        },
      });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections: total open, idle, and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const stats = database.poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  /** The children of the request metrics, one per method, route and status. */
  private readonly children = new Map<
    string,
    {
      count: Counter.Internal;
      duration: Histogram.Internal<'method' | 'route' | 'status'>;
    }
  >();

  /** Records a request answered 503 because the database could not be reached. */
  recordUnavailable(method: string) {
    if (!READS.has(method)) this.writesFailed.inc();
  }

  /** Records which database a GET read from. */
  recordRead(target: 'primary' | 'replica') {
    this.readsBy[target].inc();
  }

  /** Records an answered request. */
  record(method: string, route: string, status: number, seconds: number) {
    const key = `${method} ${status} ${route}`;
    let child = this.children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status) };
      child = {
        count: this.requests.labels(labels),
        duration: this.durations.labels(labels),
      };
      this.children.set(key, child);
    }
    child.count.inc();
    child.duration.observe(seconds);
  }
}
