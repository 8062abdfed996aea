import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { LoggingModule } from './logging';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { RateLimitModule } from './rate-limit';
import { ReadinessRepository } from './readiness.repository';
import { ServerShutdown } from './server-shutdown';

/** What operators need: logs, health, metrics, rate limits, orderly shutdown. */
@Module({
  imports: [LoggingModule, TerminusModule, RateLimitModule],
  controllers: [HealthController, MetricsController],
  providers: [Metrics, ReadinessRepository, ServerShutdown],
  exports: [Metrics],
})
export class OpsModule {}
