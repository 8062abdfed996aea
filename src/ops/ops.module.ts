import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { LoggingModule } from './logging';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RedisModule } from './redis/redis.module';
import { ReadinessRepository } from './readiness.repository';
import { RequestObserver } from './request-observer';
import { ServerShutdown } from './server-shutdown';
import { OpenApiSections } from './openapi-sections';

/** What operators need: logs, health, metrics, rate limits, orderly shutdown. */
@Module({
  imports: [LoggingModule, TerminusModule, RedisModule, RateLimitModule],
  controllers: [HealthController, MetricsController],
  providers: [
    Metrics,
    ReadinessRepository,
    RequestObserver,
    ServerShutdown,
    OpenApiSections,
  ],
  exports: [Metrics, RequestObserver, OpenApiSections],
})
export class OpsModule {}
