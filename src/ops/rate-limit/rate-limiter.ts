import {
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { boundedCache, keyedEntryBytes } from '../../common/cache-budget';
import {
  bearerTokenOrNone,
  canonicalToken,
} from '../../common/http/credentials';
import { TooManyRequests } from '../../common/errors';
import { requestState } from '../../common/http/request-context';
import { AppConfig } from '../../config/app-config';
import type { Counters, WindowCount } from './counters';

export const COUNTERS = Symbol('COUNTERS');

/** The bytes of the tokens seen valid (10,000 keys of 64 characters) and of the spent addresses. */
export const VALID_BYTES = 4 * 1024 * 1024;
export const SPENT_BYTES = 3 * 1024 * 1024;

const sha256 = (text: string) =>
  createHash('sha256').update(text).digest('hex');

/** A token's budget key: what it means, hashed (never the secret itself). */
const tokenKey = (token: string) => sha256(canonicalToken(token));

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
  /**
   * Tokens this instance has seen authenticate, by key: while a client
   * address's budget of failures is spent, only these are looked up.
   */
  private readonly valid = boundedCache<string, true>({
    max: 10_000,
    maxBytes: VALID_BYTES,
    sizeOf: keyedEntryBytes,
  });
  /**
   * Client addresses whose budget of failures this instance saw spent, with
   * the end of that window: known without asking the counters.
   */
  private readonly spent = boundedCache<string, number>({
    max: 10_000,
    maxBytes: SPENT_BYTES,
    sizeOf: keyedEntryBytes,
  });

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
    const state = requestState(req);
    if (!state.limited) return next();
    const token = bearerTokenOrNone(req);
    if (token) state.tokenKey = tokenKey(token);
    const counted = this.counters.hit(
      state.tokenKey ? `token:${state.tokenKey}` : `address:${req.ip}`,
      this.windowMs(),
    );
    // Counted in this process: answered at once, without a promise.
    if (!(counted instanceof Promise)) return next(this.admit(res, counted));
    // A failed count, or a throw while answering it, goes to the error handlers.
    counted.then((known) => this.admit(res, known)).then(next, next);
  };

  /** The 429 past the request budget, once the count's headers are set. */
  private admit(res: Response, counted: WindowCount) {
    const limit = this.config.rateLimit;
    const reset = this.setHeaders(res, counted, limit);
    return counted.count > limit ? new TooManyRequests(reset) : undefined;
  }

  /** The key of the request's token: the middleware's, computed once. */
  private keyOf(req: Request): string | undefined {
    const state = requestState(req);
    if (state.tokenKey) return state.tokenKey;
    const token = bearerTokenOrNone(req);
    return token ? tokenKey(token) : undefined;
  }

  /** Charges a failed authentication to the client address's budget of failures. */
  async chargeFailedAuthentication(req: Request, res: Response): Promise<void> {
    const limit = this.config.rateLimitFailedAuthentications;
    const counted = await this.counters.hit(
      `failed:${req.ip}`,
      this.windowMs(),
    );
    this.setHeaders(res, counted, limit);
    const { count, resetMs } = counted;
    if (count >= limit) this.spent.set(req.ip!, Date.now() + resetMs);
    if (count > limit)
      throw new TooManyRequests(Math.max(1, Math.ceil(resetMs / 1000)));
  }

  /**
   * Refuses (429) a token from a client address whose budget of failures is
   * spent before it is looked up, unless this instance has seen the token
   * valid: a flood of made-up tokens past the budget costs no lookup.
   */
  refuseWhileFailuresSpent(req: Request, res: Response): void {
    const ends = this.spent.get(req.ip!);
    if (ends === undefined) return;
    const resetMs = ends - Date.now();
    if (resetMs <= 0) return void this.spent.delete(req.ip!);
    const key = this.keyOf(req);
    if (!key || this.valid.has(key)) return;
    const limit = this.config.rateLimitFailedAuthentications;
    const reset = Math.max(1, Math.ceil(resetMs / 1000));
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', '0');
    res.setHeader('RateLimit-Reset', String(reset));
    throw new TooManyRequests(reset);
  }

  /** Remembers that the request's token authenticated. */
  rememberValid(req: Request): void {
    const key = this.keyOf(req);
    if (key) this.valid.set(key, true);
  }

  private windowMs(): number {
    return this.config.rateLimitWindowSeconds * 1000;
  }

  /** Sets the rate-limit headers of a count; the seconds until its window ends. */
  private setHeaders(
    res: Response,
    { count, resetMs }: WindowCount,
    limit: number,
  ): number {
    const reset = Math.max(1, Math.ceil(resetMs / 1000));
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - count)));
    res.setHeader('RateLimit-Reset', String(reset));
    return reset;
  }

  onApplicationShutdown(): Promise<void> {
    return this.counters.close();
  }
}
