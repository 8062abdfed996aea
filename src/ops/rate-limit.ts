import {
  ExecutionContext,
  Injectable,
  Logger,
  Module,
  OnApplicationShutdown,
} from '@nestjs/common';
import {
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModule,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import Redis from 'ioredis';
import { TooManyRequests } from '../common/errors';
import { AppConfig } from '../config/app-config';

const sha256 = (text: string) =>
  createHash('sha256').update(text).digest('hex');

/**
 * The rate limit of decisions.md: one budget per token across all routes
 * (per client address for requests without a token), `RateLimit-*` headers
 * on every answer that passes the guards, 429 with `Retry-After` past it.
 */
@Injectable()
export class TokenThrottlerGuard extends ThrottlerGuard {
  protected headerPrefix = 'RateLimit';

  protected async getTracker(req: Request): Promise<string> {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ')
      ? header.slice(7)
      : req.query.access_token;
    // Two access_token parameters arrive as an array: still one budget.
    return token
      ? `token:${sha256(JSON.stringify(token))}`
      : `address:${req.ip}`;
  }

  protected generateKey(
    _context: ExecutionContext,
    tracker: string,
    name: string,
  ): string {
    return sha256(`${name}:${tracker}`);
  }

  protected async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new TooManyRequests(Math.max(1, detail.timeToBlockExpire));
  }
}

// A fixed window per key: the first hit starts it, the key expires with it.
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {hits, redis.call('PTTL', KEYS[1])}`;

/**
 * Rate-limit counters in Redis, shared by every instance. When Redis cannot
 * be reached the request is let through (and logged): an outage of the
 * counter store must not become an outage of the service.
 */
export class RedisThrottlerStorage
  implements ThrottlerStorage, OnApplicationShutdown
{
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: false,
    });
    this.redis.on('error', (error: Error) =>
      this.logger.warn(`Redis: ${error.message}`),
    );
  }

  async increment(key: string, ttl: number, limit: number) {
    try {
      const [hits, pttl] = (await this.redis.eval(
        INCREMENT,
        1,
        `identity:rate:${key}`,
        ttl,
      )) as [number, number];
      const seconds = Math.max(1, Math.ceil(pttl / 1000));
      return {
        totalHits: hits,
        timeToExpire: seconds,
        isBlocked: hits > limit,
        timeToBlockExpire: hits > limit ? seconds : 0,
      };
    } catch {
      return {
        totalHits: 0,
        timeToExpire: Math.ceil(ttl / 1000),
        isBlocked: false,
        timeToBlockExpire: 0,
      };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis.disconnect();
  }
}

/**
 * The same fixed windows in this process, for a single instance: one
 * counter per key, O(1) per request, swept once a second. (The library's
 * own store keeps every hit's time and filters them on each request.)
 */
export class MemoryThrottlerStorage
  implements ThrottlerStorage, OnApplicationShutdown
{
  private readonly windows = new Map<string, { hits: number; ends: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 1000).unref();

  async increment(key: string, ttl: number, limit: number) {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.ends <= now) {
      window = { hits: 0, ends: now + ttl };
      this.windows.set(key, window);
    }
    const hits = ++window.hits;
    const seconds = Math.max(1, Math.ceil((window.ends - now) / 1000));
    return {
      totalHits: hits,
      timeToExpire: seconds,
      isBlocked: hits > limit,
      timeToBlockExpire: hits > limit ? seconds : 0,
    };
  }

  private sweep(now = Date.now()) {
    for (const [key, window] of this.windows)
      if (window.ends <= now) this.windows.delete(key);
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }
}

export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');

/** Counters in Redis when REDIS_URL is set, in this process otherwise. */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [AppConfig],
      useFactory: (config: AppConfig): ThrottlerStorage =>
        config.redisUrl
          ? new RedisThrottlerStorage(config.redisUrl)
          : new MemoryThrottlerStorage(),
    },
  ],
  exports: [RATE_LIMIT_STORAGE],
})
export class RateLimitStorageModule {}

export const RateLimitModule = ThrottlerModule.forRootAsync({
  imports: [RateLimitStorageModule],
  inject: [AppConfig, RATE_LIMIT_STORAGE],
  useFactory: (config: AppConfig, storage: ThrottlerStorage) => ({
    throttlers: [
      { ttl: config.rateLimitWindowSeconds * 1000, limit: config.rateLimit },
    ],
    storage,
  }),
});
