import { FieldError } from './validation/field-errors';

/**
 * An error a client caused or may see. The exception filter renders each as
 * an RFC 9457 problem; `type` is `urn:problem:identity:<slug>`.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly slug: string;
  abstract readonly title: string;
  readonly headers: Record<string, string> = {};
  readonly errors?: FieldError[];
  /** The SCIM error type (RFC 7644 §3.12) a SCIM client sees, where one fits. */
  readonly scimType?: ScimType;
}

/** The `scimType` values of RFC 7644 §3.12. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers';

export class InvalidRequest extends DomainError {
  readonly status = 400;
  readonly slug = 'invalid-request';
  readonly title = 'Invalid request';
  constructor(
    detail: string,
    readonly errors?: FieldError[],
    readonly scimType: ScimType = 'invalidValue',
  ) {
    super(detail);
  }
}

/** The request would break a uniqueness rule (a taken userName). */
export class Conflict extends DomainError {
  readonly status = 409;
  readonly slug = 'conflict';
  readonly title = 'Conflict';
  readonly scimType = 'uniqueness';
}

export class AuthenticationRequired extends DomainError {
  readonly status = 401;
  readonly slug = 'unauthorized';
  readonly title = 'Authentication required';
  constructor(readonly tokenSent: boolean) {
    super(
      tokenSent
        ? 'The access token is unknown, expired or revoked, or was issued for another tenant.'
        : 'Send an access token in the Authorization header (Bearer) or in the access_token query parameter.',
    );
  }

  /** The WWW-Authenticate challenge (RFC 6750 §3) for the request's realm. */
  challenge(realm: string): string {
    return this.tokenSent
      ? `Bearer realm="${realm}", error="invalid_token"`
      : `Bearer realm="${realm}"`;
  }
}

/**
 * A live app token with the tenant:admin scope, sent to another tenant's
 * paths: a 401 like any token of another tenant, except on the admin API,
 * where the other tenant's administration is a resource its holder cannot
 * see (404, whether that tenant exists or not).
 */
export class OtherTenantAdminToken extends AuthenticationRequired {
  constructor() {
    super(true);
  }
}

/** A scrape of `/metrics` without the operator's METRICS_TOKEN. */
export class MetricsTokenRequired extends DomainError {
  readonly status = 401;
  readonly slug = 'unauthorized';
  readonly title = 'Authentication required';
  readonly headers: Record<string, string>;
  constructor(tokenSent: boolean) {
    super(
      tokenSent
        ? 'The token is not the metrics token.'
        : 'Send the metrics token in the Authorization header (Bearer).',
    );
    this.headers = {
      'WWW-Authenticate': tokenSent
        ? 'Bearer realm="metrics", error="invalid_token"'
        : 'Bearer realm="metrics"',
    };
  }
}

export class Forbidden extends DomainError {
  readonly status = 403;
  readonly slug = 'forbidden';
  readonly title = 'Forbidden';
}

export class IdentityNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'identity-not-found';
  readonly title = 'Identity not found';
  constructor(identityId: string) {
    super(
      `No identity "${identityId}" is visible to the caller in this tenant.`,
    );
  }
}

/** An account that the identity does not have. */
export class AccountNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'account-not-found';
  readonly title = 'Account not found';
  constructor(identityId: string, accountId: string) {
    super(`Identity "${identityId}" has no account "${accountId}".`);
  }
}

/** An account that cannot be recorded or removed as asked (docs/api.md, accounts). */
export class AccountConflict extends DomainError {
  readonly status = 409;
  readonly title = 'Account conflict';
  constructor(
    readonly slug:
      | 'account-in-use'
      | 'limit-reached'
      | 'account-id-taken'
      | 'current-account',
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * A link code that confirms nothing for the caller: unknown, spent,
 * expired, or another identity's or tenant's, alike so that a code tells
 * nobody else whose it was (docs/api.md, linking an account).
 */
export class LinkNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'link-not-found';
  readonly title = 'Link not found';
  constructor() {
    super(
      'No link of the caller awaits this code: it is spent, expired or another identity’s. Start the link again.',
    );
  }
}

/** A token the tenant does not have (or, to revoke, not live). */
export class TokenNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'token-not-found';
  readonly title = 'Token not found';
  constructor(tokenId: string, live = false) {
    super(`No ${live ? 'live ' : ''}token "${tokenId}" in this tenant.`);
  }
}

/** An account provider the tenant does not have. */
export class ProviderNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'provider-not-found';
  readonly title = 'Account provider not found';
  constructor(id: string) {
    super(`No account provider "${id}" in this tenant.`);
  }
}

/** A token issuer the tenant does not have. */
export class IssuerNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'issuer-not-found';
  readonly title = 'Token issuer not found';
  constructor(id: string) {
    super(`No token issuer "${id}" in this tenant.`);
  }
}

/** A webhook subscription the tenant does not have. */
export class WebhookNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'webhook-not-found';
  readonly title = 'Webhook not found';
  constructor(id: string) {
    super(`No webhook "${id}" in this tenant.`);
  }
}

/** A change of providers or issuers that would break what depends on them (docs/api.md, administration). */
export class SettingConflict extends DomainError {
  readonly status = 409;
  readonly title = 'Conflict with the tenant’s data';
  constructor(
    readonly slug:
      | 'provider-exists'
      | 'provider-in-use'
      | 'multiple-accounts'
      | 'issuer-exists'
      | 'issuer-taken',
    detail: string,
  ) {
    super(detail);
  }
}

/** A client secret to store while the operator has given the service no key to seal it with. */
export class NoSecretKey extends DomainError {
  readonly status = 409;
  readonly slug = 'no-secret-key';
  readonly title = 'No key to store secrets with';
  constructor() {
    super(
      'The service holds no key to seal client secrets with; its operator sets SECRET_KEYS or SECRET_KEYS_FILE.',
    );
  }
}

/** The tenant of the path, gone while its request ran. */
export class TenantNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'tenant-not-found';
  readonly title = 'Tenant not found';
  constructor() {
    super('The tenant no longer exists.');
  }
}

/** Two identities that are not friends, when ending their friendship. */
export class FriendshipNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'friendship-not-found';
  readonly title = 'Friendship not found';
  constructor(identityId: string, friendId: string) {
    super(`"${identityId}" and "${friendId}" are not friends.`);
  }
}

/** A SCIM Group (a role of the tenant) that does not exist. */
export class GroupNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'group-not-found';
  readonly title = 'Group not found';
  constructor(id: string) {
    super(`No Group "${id}" in this tenant.`);
  }
}

export class RouteNotFound extends DomainError {
  readonly status = 404;
  readonly slug = 'not-found';
  readonly title = 'Not found';
  constructor(path: string) {
    super(`There is no resource at ${path}.`);
  }
}

export class MethodNotAllowed extends DomainError {
  readonly status = 405;
  readonly slug = 'method-not-allowed';
  readonly title = 'Method not allowed';
  constructor(method: string, allow: readonly string[]) {
    super(`${method} is not allowed here; allowed: ${allow.join(', ')}.`);
    this.headers['Allow'] = allow.join(', ');
  }
}

export class NotAcceptable extends DomainError {
  readonly status = 406;
  readonly slug = 'not-acceptable';
  readonly title = 'Not acceptable';
  constructor(types = 'application/json') {
    super(`This resource is only available as ${types}.`);
  }
}

export class PreconditionFailed extends DomainError {
  readonly status = 412;
  readonly slug = 'precondition-failed';
  readonly title = 'Precondition failed';
  /** `current` names what If-Match is compared with. */
  constructor(current = 'the current ETag of the identity') {
    super(`If-Match does not match ${current}; fetch it again and retry.`);
  }
}

export class UnsupportedMediaType extends DomainError {
  readonly status = 415;
  readonly slug = 'unsupported-media-type';
  readonly title = 'Unsupported media type';
  constructor(types = 'application/json') {
    super(`The request body must be ${types}.`);
  }
}

export class TooManyRequests extends DomainError {
  readonly status = 429;
  readonly slug = 'too-many-requests';
  readonly title = 'Too many requests';
  constructor(retryAfterSeconds: number) {
    super(`The request budget is spent; retry in ${retryAfterSeconds} s.`);
    // RateLimit-* are set by the rate limiter, as on every routed answer.
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/** A dependency of the answer cannot answer now: 503, to be retried in 5 s. */
abstract class ServiceUnavailable extends DomainError {
  readonly status = 503;
  readonly title = 'Service unavailable';
  constructor(detail: string) {
    super(detail);
    this.headers['Retry-After'] = '5';
  }
}

export class DatabaseUnavailable extends ServiceUnavailable {
  readonly slug = 'database-unavailable';
  constructor() {
    super('The database cannot be reached; retry shortly.');
  }
}

/** PostgreSQL stopped a statement past DATABASE_QUERY_TIMEOUT_MS: the database is up. */
export class QueryTimedOut extends ServiceUnavailable {
  readonly slug = 'query-timeout';
  constructor() {
    super(
      'The database took too long to answer this request and stopped it; retry shortly, or ask for less.',
    );
  }
}

export class IssuerUnavailable extends ServiceUnavailable {
  readonly slug = 'issuer-unavailable';
  constructor() {
    super(
      "The token's issuer cannot be reached to check its signature; retry shortly.",
    );
  }
}

/** Not an error: the identity was merged into another; follow Location. */
export class IdentityMoved extends DomainError {
  readonly status = 308;
  readonly slug = 'identity-moved';
  readonly title = 'Identity moved';
  constructor(readonly location: string) {
    super(`The identity was merged; it is now at ${location}.`);
    this.headers['Location'] = location;
  }
}
