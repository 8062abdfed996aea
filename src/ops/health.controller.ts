import {
  Controller,
  Get,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  HealthCheck,
  type HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../common/http/access.decorator';
import { readMigrations } from '../database/migrator';
import { ReadinessRepository } from './readiness.repository';

/** How long readiness waits for the database before calling it down. */
const DATABASE_CHECK_TIMEOUT_MS = 2000;

@ApiExcludeController()
@Controller('health')
export class HealthController {
  private readonly expected = readMigrations().map((m) => m.name);

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly readiness: ReadinessRepository,
  ) {}

  /** The process is up and answering. */
  @Get('live')
  @Access('public')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /**
   * The database answers and every migration is applied; 503 otherwise,
   * except while no primary can be reached and replicas answer the reads
   * (a failover under way): then 200, "degraded", since GETs are served.
   */
  @Get('ready')
  @Access('public')
  @HealthCheck()
  async ready(@Res({ passthrough: true }) res: Response) {
    try {
      return await this.health.check([() => this.database()]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const result = error.getResponse() as HealthCheckResult;
      if (this.readiness.readsWithoutPrimary()) return degraded(result);
      res.status(503).setHeader('Retry-After', '5');
      return result;
    }
  }

  private async database() {
    const check = this.indicators.check('database');
    let timer: NodeJS.Timeout | undefined;
    try {
      const applied = await Promise.race([
        this.readiness.appliedMigrations(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('no answer in time')),
            DATABASE_CHECK_TIMEOUT_MS,
          );
        }),
      ]);
      const pending = this.expected.filter((name) => !applied.includes(name));
      return pending.length
        ? check.down({ message: 'migrations pending', pending })
        : check.up({ migrations: applied.length });
    } catch {
      return check.down({ message: 'database unreachable' });
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Readiness while replicas answer the reads and no primary the writes. */
function degraded(result: HealthCheckResult) {
  const replicas = {
    status: 'up',
    message: 'no primary: reads are answered by replicas, writes with 503',
  };
  return {
    status: 'degraded',
    info: { ...result.info, replicas },
    error: result.error,
    details: { ...result.details, replicas },
  };
}
