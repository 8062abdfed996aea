import type { EventRecord } from '../events/events.repository';
import { IdentityTags, type VersionTagger } from '../identity/identity-tags';

// What a webhook delivers: one change-log event, as Standard Webhooks'
// payload `{ type, timestamp, data }` (docs/api.md, webhooks).

/** The event types a subscription may ask for, one per change-log type. */
export const WEBHOOK_EVENT_TYPES = [
  'identity.imported',
  'identity.created',
  'identity.updated',
  'identity.deleted',
  'identity.merged',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Every type, now and later: what a subscription gets when it names none. */
export const ALL_EVENT_TYPES = '*';

/** Whether a subscription to `eventTypes` delivers a change-log event of `type`. */
export const wants = (eventTypes: readonly string[], type: string) =>
  eventTypes.includes(ALL_EVENT_TYPES) ||
  eventTypes.includes(`identity.${type}`);

/** The `data` of a delivery: what the change log shows, and the ETag it led to. */
export interface WebhookEventData {
  eventId: string;
  tenantId: string;
  identityId: string;
  /** Names of the fields that changed, never their values. */
  fields: string[];
  /** The identity's ETag after the change; absent when it removed the identity. */
  etag?: string;
  relatedIdentityId?: string;
}

export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: WebhookEventData;
}

/** The `webhook-id` of an event: the same on every attempt and every endpoint. */
export const messageIdOf = (eventId: bigint | string) => `evt_${eventId}`;

/** The payload of `event`, its ETag made by `tag`. */
export function payloadOf(
  event: EventRecord & { version: bigint | null },
  tag: VersionTagger,
): WebhookPayload {
  const data: WebhookEventData = {
    eventId: event.id.toString(),
    tenantId: event.tenantId,
    identityId: event.identityId,
    fields: event.fields,
  };
  if (event.version !== null)
    data.etag = IdentityTags.etag(
      tag(event.tenantId, event.identityId, event.version),
    );
  if (event.relatedIdentityId !== null)
    data.relatedIdentityId = event.relatedIdentityId;
  return {
    type: `identity.${event.type}`,
    timestamp: event.occurredAt.toISOString(),
    data,
  };
}
