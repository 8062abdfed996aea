import type { HeaderObject, HeadersObject } from '@nestjs/swagger';
import {
  MAX_RATE_LIMIT,
  MAX_RATE_LIMIT_WINDOW_SECONDS,
} from '../../config/app-config';
import { REQUEST_ID } from './request-context';

const seconds = {
  type: 'integer',
  format: 'int32',
  minimum: 1,
  maximum: MAX_RATE_LIMIT_WINDOW_SECONDS,
} as const;
const count = (minimum: number) =>
  ({
    type: 'integer',
    format: 'int32',
    minimum,
    maximum: MAX_RATE_LIMIT,
  }) as const;

/** The response headers of the API, as `components.headers` of the document. */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    required: true,
    description:
      "the request's id: the client's own X-Request-Id when it has this shape, otherwise a generated UUID",
    schema: { type: 'string', pattern: REQUEST_ID.source },
  },
  'Cache-Control': {
    required: true,
    description:
      '`no-store` when the token came in the URL (access_token), `private, no-cache` otherwise',
    schema: { type: 'string', enum: ['private, no-cache', 'no-store'] },
  },
  'RateLimit-Limit': {
    required: true,
    description: "the token's request budget per window",
    schema: count(1),
  },
  'RateLimit-Remaining': {
    required: true,
    description: 'requests left in the current window',
    schema: count(0),
  },
  'RateLimit-Reset': {
    required: true,
    description: 'seconds until the current window ends',
    schema: seconds,
  },
  'Retry-After': {
    required: true,
    description: 'seconds to wait before trying again',
    schema: seconds,
  },
  'WWW-Authenticate': {
    required: true,
    description:
      'the Bearer challenge (RFC 6750); `error="invalid_token"` when a token was sent',
    schema: {
      type: 'string',
      pattern: '^Bearer realm="[a-z0-9-]+"(, error="invalid_token")?$',
    },
  },
  ETag: {
    required: true,
    description: 'a strong tag of the representation, for If-None-Match',
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' },
  },
  Location: {
    required: true,
    description: 'the same path under the identity this one was merged into',
    schema: { type: 'string', format: 'uri-reference' },
  },
  Link: {
    description:
      'RFC 8288 link to the next page (rel="next"), when there is one; it does not carry a token',
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
} satisfies Record<string, HeaderObject>;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** References to headers every such answer carries. */
export const headers = (...names: ResponseHeader[]): HeadersObject =>
  Object.fromEntries(
    names.map((name) => [
      name,
      { $ref: `#/components/headers/${name}` } as HeaderObject,
    ]),
  );

export const RATE_LIMIT: ResponseHeader[] = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];

/**
 * The rate-limit headers of an answer that may come before routing (a body
 * refused while it is read): present only when the request reached the routes.
 */
export const optionalRateLimitHeaders = (): HeadersObject =>
  Object.fromEntries(
    RATE_LIMIT.map((name) => [
      name,
      {
        ...RESPONSE_HEADERS[name],
        required: false,
        description: `${RESPONSE_HEADERS[name].description}; absent when the body was refused before routing`,
      },
    ]),
  );
