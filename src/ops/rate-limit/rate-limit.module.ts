import { Global, Module } from '@nestjs/common';
import { REDIS } from '../redis/redis.module';
import type { SharedRedis } from '../redis/shared-redis';
import { Counters, MemoryCounters, RedisCounters } from './counters';
import { COUNTERS, RateLimiter } from './rate-limiter';

/** Counters in Redis when REDIS_URL is set, in this process otherwise. */
@Global()
@Module({
  providers: [
    {
      provide: COUNTERS,
      inject: [REDIS],
      useFactory: (redis: SharedRedis | null): Counters =>
        redis ? new RedisCounters(redis) : new MemoryCounters(),
    },
    RateLimiter,
  ],
  exports: [RateLimiter],
})
export class RateLimitModule {}
