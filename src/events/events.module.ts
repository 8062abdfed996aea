import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** The change log of identities, read by the command line. */
@Module({
  providers: [EventsService, EventsRepository],
  exports: [EventsService],
})
export class EventsModule {}
