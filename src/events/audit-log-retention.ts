import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { EventsRepository } from './events.repository';

/** How often an instance drops the audit log entries past AUDIT_LOG_DAYS. */
const RETENTION_EVERY_MS = 10 * 60_000;

/**
 * Keeps the audit log to AUDIT_LOG_DAYS: every instance drops the entries
 * past it now and then, a bounded number at a time (pruneAdminEvents), so
 * that no run holds the database for long; several instances at once
 * delete the same rows, which costs nothing more.
 */
@Injectable()
export class AuditLogRetention
  implements OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger('AuditLog');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly events: EventsRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // A command line process ends long before: the timer never holds it.
    this.timer = setInterval(() => void this.run(), RETENTION_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Drops the entries past AUDIT_LOG_DAYS (a bounded number); how many went. */
  prune(): Promise<number> {
    return this.events.pruneAdminEvents(this.config.quotas.auditLogDays);
  }

  private async run(): Promise<void> {
    try {
      await this.prune();
    } catch (error) {
      // The database is away: the next run tries again.
      this.logger.warn(`audit log retention: ${(error as Error).message}`);
    }
  }
}
