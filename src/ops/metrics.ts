import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import { Database } from '../database/database';

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

  constructor(database: Database) {
    collectDefaultMetrics({ register: this.registry });
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

  /** Express middleware that records every response when it is finished. */
  readonly middleware = (req: Request, res: Response, next: NextFunction) => {
    const end = this.durations.startTimer();
    res.once('finish', () => {
      const labels = {
        method: req.method,
        route: (req.route?.path as string | undefined) ?? 'unmatched',
        status: String(res.statusCode),
      };
      this.requests.inc(labels);
      end(labels);
    });
    next();
  };
}
