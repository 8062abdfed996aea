export {
  createIdentityClient,
  type ClientOptions,
  type IdentityClient,
} from './client';
export { EtagCache } from './conditional';
export { nextLink } from './pages';
export {
  ApiError,
  ProblemError,
  type FieldError,
  type Problem,
} from './problem';
export { retryAfterMs, type RetryOptions } from './retry';
export type { components, operations, paths, webhooks } from './schema';
export type { Fetch } from './transport';
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks';

import type { components } from './schema';

/** An identity as the identity API answers it: whole, or as its friends see it. */
export type Identity = components['schemas']['IdentityResponse'];
export type ReducedIdentity = components['schemas']['ReducedIdentityResponse'];
