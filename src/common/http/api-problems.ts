import type { HeadersObject, ResponseObject } from '@nestjs/swagger';
import {
  AccountConflict,
  AccountNotFound,
  AuthenticationRequired,
  Conflict,
  DatabaseUnavailable,
  QueryTimedOut,
  Forbidden,
  FriendshipNotFound,
  IdentityNotFound,
  InvalidRequest,
  IssuerUnavailable,
  MethodNotAllowed,
  NotAcceptable,
  PreconditionFailed,
  TooManyRequests,
  UnsupportedMediaType,
  ProviderNotFound,
  SettingConflict,
  LinkNotFound,
  NoSecretKey,
} from '../errors';
import {
  headers,
  optionalRateLimitHeaders,
  RATE_LIMIT,
  ResponseHeader,
} from './api-headers';
import { ANSWERS } from './client-errors';
import {
  domainProblem,
  frameworkProblem,
  internalProblem,
  Problem,
  problem,
} from './problem';

// Examples are built by the same code that writes the answers, so a 401's
// example is the body and headers a 401 really has.
const AT = '/demo/api/identity/v1';
const ADMIN_AT = '/demo/api/admin/v1';
const framework = (key: string) => frameworkProblem(key, AT);
const unknownField = new InvalidRequest('Unknown field in fields: "nope".', [
  { field: 'fields', message: 'unknown field "nope"' },
]);

export interface ProblemDoc {
  description: string;
  examples: Record<string, Problem>;
  /** Headers besides the rate-limit ones. */
  headers?: ResponseHeader[];
  /** Answered before routing: no budget used, no RateLimit-* headers. */
  beforeRouting?: true;
  /** Sometimes answered before routing (while the body is read, or a malformed path). */
  maybeBeforeRouting?: true;
}

export const PROBLEMS: Record<number, ProblemDoc> = {
  400: {
    description:
      'invalid query or body values, unknown or read-only body fields, two tokens, a malformed Authorization header or path, malformed JSON',
    examples: {
      'invalid-request': domainProblem(unknownField, AT),
      'malformed-path': framework('uri.malformed'),
      'malformed-json': framework('entity.parse.failed'),
    },
    maybeBeforeRouting: true,
  },
  401: {
    description:
      'no valid token for this tenant (none, unknown, expired, revoked, of another tenant, or an unknown tenant)',
    examples: {
      'no-token': domainProblem(new AuthenticationRequired(false), AT),
      'invalid-token': domainProblem(new AuthenticationRequired(true), AT),
    },
    headers: ['WWW-Authenticate'],
  },
  403: {
    description:
      'not permitted: a disabled identity, a missing scope, or an app token on a current-identity path',
    examples: {
      forbidden: domainProblem(
        new Forbidden(
          'An app token has no current identity; name the identity in the path.',
        ),
        AT,
      ),
    },
  },
  404: {
    description:
      'no such identity, or one the caller may not see; on the write paths of accounts and friends, no such account or friendship; a link confirmation whose code is unknown, spent, expired or another identity’s; on the admin API, no such token, provider or issuer (and, for another tenant’s admin token, no such administration)',
    examples: {
      'identity-not-found': domainProblem(
        new IdentityNotFound('nobody'),
        `${AT}/nobody`,
      ),
      'account-not-found': domainProblem(
        new AccountNotFound('alice', 'gh-1'),
        `${AT}/alice/accounts/gh-1`,
      ),
      'friendship-not-found': domainProblem(
        new FriendshipNotFound('alice', 'carol'),
        `${AT}/alice/friends/carol`,
      ),
      'provider-not-found': domainProblem(
        new ProviderNotFound('gitlab'),
        `${ADMIN_AT}/account-providers/gitlab`,
      ),
      'link-not-found': domainProblem(
        new LinkNotFound(),
        `${AT}/accounts/link-confirmations`,
      ),
    },
  },
  405: {
    description:
      'this path does not allow the method; Allow lists those it does',
    examples: {
      'method-not-allowed': domainProblem(
        new MethodNotAllowed('POST', ['GET', 'HEAD', 'PUT', 'DELETE']),
        AT,
      ),
    },
    beforeRouting: true,
  },
  406: {
    description: 'Accept excludes JSON',
    examples: { 'not-acceptable': domainProblem(new NotAcceptable(), AT) },
    beforeRouting: true,
  },
  409: {
    description:
      'the userName is taken (compared case-insensitively); or an account that cannot be recorded or removed: one of the provider already recorded for another identity, a second one where the provider allows one, a taken accountId, the account the token was issued for; on the admin API, a provider or issuer that exists already, an issuer and audience another tenant trusts, a provider still in use, one-account-only while identities have several, or a client secret while the operator has given the service no key to seal it with',
    examples: {
      conflict: domainProblem(
        new Conflict('The userName "alice" is taken in this tenant.'),
        AT,
      ),
      'account-in-use': domainProblem(
        new AccountConflict(
          'account-in-use',
          'The account "12345" of provider "github" is another identity\'s.',
        ),
        `${AT}/alice/accounts`,
      ),
      'provider-in-use': domainProblem(
        new SettingConflict(
          'provider-in-use',
          '2 accounts are at "google"; DELETE with ?deleteAccounts=true removes them with the provider (the command line: --delete-accounts).',
        ),
        `${ADMIN_AT}/account-providers/google`,
      ),
      'no-secret-key': domainProblem(
        new NoSecretKey(),
        `${ADMIN_AT}/account-providers/gitlab`,
      ),
    },
  },
  412: {
    description: 'If-Match does not match the current ETag; nothing changed',
    examples: {
      'precondition-failed': domainProblem(new PreconditionFailed(), AT),
    },
  },
  413: {
    description: 'body over 64 KiB (1024 KiB on SCIM paths)',
    examples: { 'payload-too-large': framework('entity.too.large') },
    maybeBeforeRouting: true,
  },
  415: {
    description: 'a body that is not application/json, or not UTF-8',
    examples: {
      'unsupported-media-type': domainProblem(new UnsupportedMediaType(), AT),
      'not-utf-8': framework('charset.unsupported'),
    },
    maybeBeforeRouting: true,
  },
  429: {
    description:
      'the request budget (of the token, of the client address, or of its failed authentications) is spent; retry after Retry-After',
    examples: {
      'too-many-requests': domainProblem(new TooManyRequests(42), AT),
    },
    headers: ['Retry-After'],
  },
  431: {
    description:
      'the request headers are larger than 16 KiB in all (a token, If-Match or If-None-Match stays within 8,192 characters); the connection is then closed',
    examples: {
      'request-header-fields-too-large': problem(
        431,
        ANSWERS.HPE_HEADER_OVERFLOW[1],
        ANSWERS.HPE_HEADER_OVERFLOW[3],
        AT,
      ),
    },
    beforeRouting: true,
  },
  500: {
    description:
      'an unexpected error, logged with the request id that detail quotes',
    examples: {
      internal: internalProblem('6f1c2a8e-1d3b-4c5e-9f70-2b8d4e6a1c3f', AT),
    },
    maybeBeforeRouting: true,
  },
  503: {
    description:
      "the database, or a JWT issuer's keys, cannot be reached, or the database stopped a query that took too long; retry after Retry-After",
    examples: {
      'database-unavailable': domainProblem(new DatabaseUnavailable(), AT),
      'query-timeout': domainProblem(new QueryTimedOut(), AT),
      'issuer-unavailable': domainProblem(new IssuerUnavailable(), AT),
    },
    headers: ['Retry-After'],
  },
};

export function problemHeaders(doc: ProblemDoc): HeadersObject {
  if (doc.beforeRouting) return headers(...(doc.headers ?? []));
  if (doc.maybeBeforeRouting)
    return {
      ...optionalRateLimitHeaders(),
      ...headers(...(doc.headers ?? [])),
    };
  return headers(...RATE_LIMIT, ...(doc.headers ?? []));
}

/** The documented answer of one status: problem+json of that status, its headers and examples. */
export function problemResponse(
  status: number,
  schemaRef: string,
  examples: string[] = Object.keys(PROBLEMS[status].examples),
): ResponseObject {
  const doc = PROBLEMS[status];
  return {
    description: doc.description,
    headers: problemHeaders(doc),
    content: {
      'application/problem+json': {
        schema: {
          allOf: [
            { $ref: schemaRef },
            { properties: { status: { enum: [status] } } },
          ],
        },
        examples: Object.fromEntries(
          examples.map((name) => [name, { value: doc.examples[name] }]),
        ),
      },
    },
  };
}
