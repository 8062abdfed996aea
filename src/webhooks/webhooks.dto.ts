import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  Absent,
  IsFlag,
  IsText,
  STORABLE_TEXT,
} from '../common/validation/field-rules';
import { DATE_TIME } from '../common/validation/date-time';
import { ALL_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './webhook-events';

/** A webhook's id: `wh_` and 26 characters of lower-case base 32. */
export const WEBHOOK_ID = /^wh_[0-9a-z]{26}$/;

/** The longest a previous secret may go on signing after a rotation: a week. */
export const MAX_OVERLAP_SECONDS = 7 * 86400;

const EVENT_TYPE_CHOICES = [ALL_EVENT_TYPES, ...WEBHOOK_EVENT_TYPES];

const URL_RULES = () => [
  IsText(),
  Length(1, 2048, { message: 'must be 1 to 2048 characters' }),
];

/** The optional event types of a subscription; `description` only where a POST sets them. */
const EventTypes = (description?: string) =>
  applyDecorators(
    Absent(),
    IsArray({ message: 'must be an array' }),
    ArrayMinSize(1, { message: 'must name at least one type' }),
    ArrayMaxSize(EVENT_TYPE_CHOICES.length, {
      message: `must name at most ${EVENT_TYPE_CHOICES.length} types`,
    }),
    IsIn(EVENT_TYPE_CHOICES, {
      each: true,
      message: `each item must be one of ${EVENT_TYPE_CHOICES.join(', ')}`,
    }),
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', enum: EVENT_TYPE_CHOICES },
      minItems: 1,
      maxItems: EVENT_TYPE_CHOICES.length,
      ...(description !== undefined && { description }),
    }),
  );

const DESCRIPTION_RULES = () => [
  IsText(),
  Length(0, 200, { message: 'must be at most 200 characters' }),
];

/** POST of a subscription. */
export class WebhookRequest {
  @applyDecorators(...URL_RULES())
  @ApiProperty({
    description:
      'where deliveries are POSTed: https, or http on loopback (localhost, 127.0.0.0/8, ::1) for development; never a link-local, metadata or — unless the operator allows the tenant — private network address',
    maxLength: 2048,
    pattern: STORABLE_TEXT.source,
    example: 'https://crm.example.test/hooks/identity',
  })
  url: string;

  @EventTypes(
    `the event types to deliver; \`${ALL_EVENT_TYPES}\` (the default) is every type, now and later`,
  )
  eventTypes?: string[];

  @Absent()
  @applyDecorators(...DESCRIPTION_RULES())
  @ApiPropertyOptional({ maxLength: 200, pattern: STORABLE_TEXT.source })
  description?: string;

  @Absent()
  @IsFlag()
  @ApiPropertyOptional({
    description: 'whether events are delivered (default true)',
  })
  enabled?: boolean;
}

/** PATCH of a subscription: the keys it names are replaced; `description: null` removes it. */
export class WebhookPatch {
  @Absent()
  @applyDecorators(...URL_RULES())
  @ApiPropertyOptional({ maxLength: 2048, pattern: STORABLE_TEXT.source })
  url?: string;

  @EventTypes() eventTypes?: string[];

  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @applyDecorators(...DESCRIPTION_RULES())
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 200,
    pattern: STORABLE_TEXT.source,
  })
  description?: string | null;

  @Absent()
  @IsFlag()
  @ApiPropertyOptional({
    description:
      'false stops delivery (events keep their place); true resumes it, also after the subscription was marked failing or disabled by a 410, from where it stopped',
  })
  enabled?: boolean;
}

export class RotateSecretRequest {
  @Absent()
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be at least 0' })
  @Max(MAX_OVERLAP_SECONDS, {
    message: `must be at most ${MAX_OVERLAP_SECONDS}`,
  })
  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    description:
      'how long the previous secret goes on signing beside the new one (default 86400: a day)',
  })
  overlapSeconds?: number;
}

export class ReplayRequest {
  @Absent()
  @IsText()
  @Matches(/^[1-9]\d{0,18}$/, { message: 'must be an event id' })
  @ApiPropertyOptional({
    pattern: '^[1-9]\\d{0,18}$',
    maxLength: 19,
    description: 'redeliver from this event (a change log id) on',
  })
  fromEventId?: string;

  @Absent()
  @IsText()
  @Matches(DATE_TIME, {
    message: 'must be an RFC 3339 date-time, such as 2026-11-25T10:00:00Z',
  })
  @ApiPropertyOptional({
    format: 'date-time',
    maxLength: 40,
    description: 'redeliver the events that occurred at or after this time',
  })
  since?: string;
}

export class WebhookResponse {
  @ApiProperty({
    pattern: WEBHOOK_ID.source,
    example: 'wh_0mc2pq5w8k3n4v6x7y9z1a2b3c',
  })
  id: string;
  @ApiProperty() url: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: EVENT_TYPE_CHOICES },
  })
  eventTypes: string[];
  @ApiPropertyOptional() description?: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({
    enum: ['active', 'retrying', 'failing', 'disabled'],
    description:
      '`active`: delivering; `retrying`: the last attempt failed and the next one waits its back-off; `failing`: attempts failed for longer than the retry period, delivery stopped, the backlog kept; `disabled`: by an admin, or by a 410 Gone',
  })
  status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({
    format: 'date-time',
    description: 'when the current secret was made',
  })
  secretCreatedAt: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'while the previous secret signs too: until when',
  })
  previousSecretExpiresAt?: string;
}

export class CreatedWebhookResponse extends WebhookResponse {
  @ApiProperty({
    description:
      'the signing secret (`whsec_` and base64), in this answer only',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class RotatedSecretResponse {
  @ApiProperty({ description: 'the new signing secret, in this answer only' })
  secret: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'until when the previous secret signs beside it',
  })
  previousSecretExpiresAt?: string;
}

export class WebhookStatusResponse {
  @ApiProperty({ enum: ['active', 'retrying', 'failing', 'disabled'] })
  status: string;
  @ApiProperty({
    description:
      'the last change log event handled: delivered, or skipped as a type not wanted',
  })
  position: string;
  @ApiProperty({
    description: 'events waiting to be delivered (counted up to 1,000,000)',
  })
  backlog: number;
  @ApiPropertyOptional({ format: 'date-time' }) oldestUndeliveredAt?: string;
  @ApiPropertyOptional({
    description: 'seconds since the oldest undelivered event occurred',
  })
  lagSeconds?: number;
  @ApiPropertyOptional({ format: 'date-time' }) lastDeliveredAt?: string;
  @ApiPropertyOptional() lastDeliveredEventId?: string;
  @ApiPropertyOptional({ format: 'date-time' }) lastErrorAt?: string;
  @ApiPropertyOptional({
    description:
      'what went wrong, in the service’s words: never the receiver’s',
  })
  lastError?: string;
  @ApiProperty({ description: 'failed attempts in a row' })
  failedAttempts: number;
  @ApiPropertyOptional({ format: 'date-time' }) failingSince?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'when the next attempt may start',
  })
  nextAttemptAt?: string;
}

export class WebhookAttemptResponse {
  @ApiProperty() id: string;
  @ApiProperty() eventId: string;
  @ApiProperty({ format: 'date-time' }) attemptedAt: string;
  @ApiProperty() durationMs: number;
  @ApiPropertyOptional({ description: 'the HTTP status the receiver answered' })
  status?: number;
  @ApiPropertyOptional({
    description: 'what went wrong, in the service’s words',
  })
  error?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'when the event was committed (its lag is attemptedAt minus this); absent once the change log no longer holds it',
  })
  eventOccurredAt?: string;
}
