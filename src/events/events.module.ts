import { Module } from '@nestjs/common';
import { AuditLogRetention } from './audit-log-retention';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** The change log of identities and the audit log of tenant administration. */
@Module({
  providers: [EventsService, EventsRepository, AuditLogRetention],
  exports: [EventsService, EventsRepository],
})
export class EventsModule {}
