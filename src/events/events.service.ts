import { Injectable } from '@nestjs/common';
import { EventRecord, EventsRepository } from './events.repository';

/** An event as the command line prints it (one JSON line each) and the admin API shows it. */
export interface IdentityEvent {
  id: string;
  tenantId: string;
  identityId: string;
  type: string;
  fields: string[];
  relatedIdentityId?: string;
  occurredAt: string;
}

@Injectable()
export class EventsService {
  constructor(private readonly events: EventsRepository) {}

  async listEvents(
    tenantId: string,
    afterId: bigint,
    limit = 1000,
  ): Promise<IdentityEvent[]> {
    return (await this.events.findEvents(tenantId, afterId, limit)).map(
      toIdentityEvent,
    );
  }

  /** The identity's events before `beforeId` (all without it), newest first, at most `limit`. */
  async identityEvents(
    tenantId: string,
    identityId: string,
    beforeId: bigint | undefined,
    limit: number,
  ): Promise<IdentityEvent[]> {
    const rows = await this.events.findIdentityEvents(
      tenantId,
      identityId,
      beforeId,
      limit,
    );
    return rows.map(toIdentityEvent);
  }
}

export function toIdentityEvent(row: EventRecord): IdentityEvent {
  const event: IdentityEvent = {
    id: row.id.toString(),
    tenantId: row.tenantId,
    identityId: row.identityId,
    type: row.type,
    fields: row.fields,
    occurredAt: row.occurredAt.toISOString(),
  };
  if (row.relatedIdentityId !== null)
    event.relatedIdentityId = row.relatedIdentityId;
  return event;
}
