import { Injectable } from '@nestjs/common';
import { DEFAULT_LIMIT } from '../admin/admin-rules';
import { Collection, int8Key, Page, pageFrom } from '../common/pagination';
import { EventsService, IdentityEvent } from '../events/events.service';
import { toFieldsResponse } from '../identity/identity.mapper';
import {
  IdentitySummaryResponse,
  SUMMARY_FIELDS,
} from './admin-identities.dto';
import { AdminIdentitiesRepository } from './admin-identities.repository';

/** A search lists identities by identityId; an identity's events go newest first. */
export const IDENTITIES_ORDER = ['identityId'] as const;
export const EVENTS_ORDER = ['id'] as const;

/**
 * What the administration API adds to the identity API's reads: a search
 * of the tenant's identities, and an identity's change log.
 */
@Injectable()
export class AdminIdentitiesService {
  constructor(
    private readonly identities: AdminIdentitiesRepository,
    private readonly events: EventsService,
  ) {}

  /** A page of the tenant's identities, those holding `text` when given. */
  async findIdentities(
    tenantId: string,
    text: string | undefined,
    page: Page,
  ): Promise<Collection<IdentitySummaryResponse[]>> {
    const limit = page.limit ?? DEFAULT_LIMIT;
    const rows = await this.identities.findIdentities(
      tenantId,
      text,
      page.after?.[0],
      limit + 1,
    );
    const found = rows.map((row) => toFieldsResponse(row, SUMMARY_FIELDS));
    return pageFrom(found, { limit }, (identity) => [identity.identityId]);
  }

  /** A page of the identity's change log events, newest first. */
  async identityEvents(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<Collection<IdentityEvent[]>> {
    const limit = page.limit ?? DEFAULT_LIMIT;
    const before = page.after && int8Key(page.after[0]);
    const events = await this.events.identityEvents(
      tenantId,
      identityId,
      before,
      limit + 1,
    );
    return pageFrom(events, { limit }, (event) => [event.id]);
  }
}
