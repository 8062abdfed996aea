import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { pino } from 'pino';
import { pathParam, requestState } from '../common/http/request-context';
import { PINO } from './logging';
import { redactUrl } from './url-redaction';
import { Metrics } from './metrics';

/**
 * Watches every request to its end: records it in the metrics (by route
 * template, never a raw path) and logs one line with its id, method, URL
 * (secrets removed: see redactUrl), tenant, route, status and duration. One listener per
 * request and one log call, without a logger or a context per request.
 */
@Injectable()
export class RequestObserver {
  constructor(
    private readonly metrics: Metrics,
    @Inject(PINO) private readonly log: pino.Logger,
  ) {}

  readonly middleware = (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    // A response finishes once: `on` rather than `once`, which wraps the listener.
    res.on('finish', () => {
      const ms = performance.now() - started;
      const route = req.route?.path as string | undefined;
      this.metrics.record(
        req.method,
        route ?? 'unmatched',
        res.statusCode,
        ms / 1000,
      );
      if (!this.log.isLevelEnabled('info')) return;
      this.log.info(
        {
          req: {
            id: requestState(req).id,
            method: req.method,
            url: redactUrl(req.originalUrl),
          },
          tenant: pathParam(req, 'tenant') || undefined,
          route,
          res: { statusCode: res.statusCode },
          responseTime: Math.round(ms),
        },
        res.statusCode >= 500 ? 'request errored' : 'request completed',
      );
    });
    next();
  };
}
