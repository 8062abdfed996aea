import type { OpenAPIObject } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from './webhook-events';

/** What each event type means, for the document's `webhooks` section. */
const MEANING: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  'identity.imported': 'An import made or replaced the identity.',
  'identity.created':
    'A SCIM POST, or a JWT of a jit issuer, made the identity.',
  'identity.updated':
    'A PUT, a SCIM PUT or PATCH, a SCIM Group change of its roles, a sign-in that moved lastLogin, an account or friendship recorded or removed changed the identity; `fields` names what changed.',
  'identity.deleted':
    'A DELETE, a SCIM DELETE, a replacing import or a merge removed the identity; there is no `etag`.',
  'identity.merged':
    'Another identity (`relatedIdentityId`) was merged into this one.',
};

/** A Standard Webhooks header: required, a string of `pattern`. */
const header = (name: string, description: string, pattern: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', pattern, maxLength: 2048 },
});

/** The headers every delivery carries (docs/api.md, webhooks). */
const HEADERS = [
  header(
    'webhook-id',
    'the event’s id, the same on every attempt: de-duplicate by it',
    '^evt_[1-9][0-9]*$',
  ),
  header(
    'webhook-timestamp',
    'when this attempt was signed, in seconds since the epoch',
    '^[0-9]{1,12}$',
  ),
  header(
    'webhook-signature',
    '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the secret, one per secret (two while a rotation overlaps), space-separated',
    '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$',
  ),
];

/** The `data` of every event's payload. */
const DATA = {
  type: 'object',
  required: ['eventId', 'tenantId', 'identityId', 'fields'],
  additionalProperties: false,
  properties: {
    eventId: {
      type: 'string',
      pattern: '^[1-9][0-9]*$',
      description: 'the change log id; webhook-id is `evt_` and it',
    },
    tenantId: { type: 'string' },
    identityId: { type: 'string' },
    fields: {
      type: 'array',
      items: { type: 'string' },
      description: 'names of the fields that changed, never their values',
    },
    etag: {
      type: 'string',
      description:
        'the ETag of the identity’s full representation after the change; absent when the change removed it',
    },
    relatedIdentityId: {
      type: 'string',
      description:
        'for merges: on identity.merged the identity merged in, on its identity.deleted the one it went into',
    },
  },
};

/** The payload of an event of `type`. */
const payload = (type: string) => ({
  type: 'object',
  required: ['type', 'timestamp', 'data'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', const: type },
    timestamp: {
      type: 'string',
      format: 'date-time',
      description: 'when the change was committed',
    },
    data: DATA,
  },
});

/** The POST that delivers an event of `type`. */
const delivery = (type: (typeof WEBHOOK_EVENT_TYPES)[number]) => ({
  post: {
    operationId: `webhook:${type}`,
    summary: MEANING[type],
    description:
      'Sent to each subscribed endpoint by the Standard Webhooks rules, at least once, in order per identity; an endpoint answers 2xx once it has the event (anything else is retried with back-off; 410 disables the subscription).',
    tags: ['admin'],
    security: [],
    parameters: HEADERS,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: payload(type) } },
    },
    responses: {
      '204': { description: 'received (any 2xx)' },
      '410': {
        description: 'the endpoint is gone: the subscription is disabled',
      },
    },
  },
});

/**
 * Adds the OpenAPI 3.1 `webhooks` section: one POST per event type, the
 * Standard Webhooks headers and the payload (docs/api.md, webhooks).
 */
export function addWebhooks(document: OpenAPIObject): OpenAPIObject {
  const webhooks = Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [type, delivery(type)]),
  );
  return { ...document, webhooks } as OpenAPIObject;
}
