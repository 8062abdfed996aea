import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AppConfig } from '../../config/app-config';
import { OpsModule } from '../ops.module';
import { REDIS } from '../redis/redis.module';
import type { SharedRedis } from '../redis/shared-redis';
import { ReadRouting, RecordWrites, WRITE_POSITIONS } from './read-routing';
import {
  MemoryWritePositions,
  RedisWritePositions,
  WritePositions,
} from './write-positions';

/**
 * Reads from replicas (when DATABASE_REPLICA_URL is set; the application
 * imports this module only then). A write's position is kept for twice the
 * lag bound: by then every replica within the bound has replayed it.
 */
@Module({
  imports: [OpsModule],
  providers: [
    {
      provide: WRITE_POSITIONS,
      inject: [AppConfig, REDIS],
      useFactory: (
        config: AppConfig,
        redis: SharedRedis | null,
      ): WritePositions => {
        const ttlMs = 2 * config.databaseReplicaMaxLagMs;
        return redis
          ? new RedisWritePositions(redis, ttlMs)
          : new MemoryWritePositions(ttlMs);
      },
    },
    ReadRouting,
    { provide: APP_INTERCEPTOR, useClass: RecordWrites },
  ],
  exports: [ReadRouting],
})
export class ReadRoutingModule {}
