import {
  Controller,
  Get,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  HealthCheck,
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

  /** The database answers and every migration is applied; 503 otherwise. */
  @Get('ready')
  @Access('public')
  @HealthCheck()
  async ready(@Res({ passthrough: true }) res: Response) {
    try {
      return await this.health.check([() => this.database()]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503).setHeader('Retry-After', '5');
      return error.getResponse();
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
