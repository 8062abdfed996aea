import {
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { bearerTokenOrNone } from '../../auth/credentials';
import { TooManyRequests } from '../../common/errors';
import { requestState } from '../../common/http/request-context';
import { AppConfig } from '../../config/app-config';
import type { Counters } from './counters';

export const COUNTERS = Symbol('COUNTERS');

const sha256 = (text: string) =>
  createHash('sha256').update(text).digest('hex');

/**
 * The rate limits of decisions.md. Every request that reaches an API route
 * is charged before its body is read, to the budget of its token as
 * authentication reads it (header or query, the scheme in any case), or of
 * its client address when it sends none; every answer then carries
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` — 413, 415
 * and malformed-JSON 400 included — and past the budget the answer is 429
 * with `Retry-After`. A token that fails authentication is charged to the
 * client address's own budget of failures as well, so a flood of made-up
 * tokens is limited while valid tokens keep their own budgets.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  constructor(
    private readonly config: AppConfig,
    @Inject(COUNTERS) private readonly counters: Counters,
  ) {
    if (config.trustProxy === true)
      new Logger('RateLimit').warn(
        "TRUST_PROXY=true believes X-Forwarded-For from any client, which can then pick its own address and budget; set TRUST_PROXY to the gateway's addresses or hop count.",
      );
  }

  /** Express middleware, before the body is parsed. */
  readonly middleware = (req: Request, res: Response, next: NextFunction) => {
    if (!requestState(req).limited) return next();
    const token = bearerTokenOrNone(req);
    this.charge(
      res,
      token ? `token:${sha256(token)}` : `address:${req.ip}`,
      this.config.rateLimit,
    ).then(() => next(), next);
  };

  /** Charges a failed authentication to the client address's budget of failures. */
  chargeFailedAuthentication(req: Request, res: Response): Promise<void> {
    return this.charge(
      res,
      `failed:${req.ip}`,
      this.config.rateLimitFailedAuthentications,
    );
  }

  private async charge(res: Response, bucket: string, limit: number) {
    const { count, resetMs } = await this.counters.hit(
      bucket,
      this.config.rateLimitWindowSeconds * 1000,
    );
    const reset = Math.max(1, Math.ceil(resetMs / 1000));
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - count)));
    res.setHeader('RateLimit-Reset', String(reset));
    if (count > limit) throw new TooManyRequests(reset);
  }

  onApplicationShutdown(): Promise<void> {
    return this.counters.close();
  }
}
