import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { SharedRedis } from './shared-redis';

/** The shared Redis, or null when REDIS_URL is not set. */
export const REDIS = Symbol('REDIS');

/** One Redis connection per instance, for every user of it. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig): Promise<SharedRedis> | null =>
        config.redisUrl
          ? SharedRedis.connect(config.redisUrl, config.redisTimeoutMs, [
              'rate limits count in this instance',
              ...(config.databaseReplicaUrls.length
                ? ['reads go to the primary']
                : []),
            ])
          : null,
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: SharedRedis | null) {}

  onApplicationShutdown(): void {
    this.redis?.close();
  }
}
