import { applyDecorators, Get, HttpCode } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  getSchemaPath,
} from '@nestjs/swagger';
import { maxHeaderSize } from 'node:http';
import { CURSOR, CURSOR_MAX_LENGTH, MAX_PAGE_LIMIT } from '../pagination';
import {
  IDENTITY_ID,
  IDENTITY_ID_MAX_LENGTH,
  RESERVED_IDENTITY_IDS,
  TENANT_ID,
  TENANT_ID_MAX_LENGTH,
} from '../validation/field-rules';
import { Access } from './access.decorator';
import { headers, RATE_LIMIT } from './api-headers';
import { problemResponse } from './api-problems';
import { ProblemResponse } from './problem.dto';

const readers = (friend: string) =>
  `For the identity itself,${friend} an admin of the tenant, or an app token with identities:read; anyone else gets 404, exactly as for an identity that does not exist. A merged-away id answers 308 to the identity it was merged into.`;

/** Who may call a route, as the access policy decides (decisions.md, Authorization). */
export const WHO = {
  current:
    'Access tokens only: an app token has no current identity and gets 403.',
  identity: readers(' a friend (who sees its public part only),'),
  relations: readers(''),
};

/**
 * Documents the problem+json answers a route can give. Malformed JSON is a
 * 400 only where a body is read, i.e. where 415 is documented too.
 */
export const ApiProblems = (...statuses: number[]) =>
  applyDecorators(
    ApiExtraModels(ProblemResponse),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        ...problemResponse(
          status,
          getSchemaPath(ProblemResponse),
          status === 400 && !statuses.includes(415)
            ? ['invalid-request', 'malformed-path']
            : undefined,
        ),
      }),
    ),
  );

// Headers and queries share one limit with the request line (Node's
// --max-http-header-size), which bounds values the service reads whole.
/**
 * A header value or a token: all of a request's headers must fit in Node's
 * 16 KiB (431 past it), so one value is documented at half of it.
 */
const HEADER_VALUE = { type: 'string', maxLength: maxHeaderSize / 2 } as const;
/** One or more entity tags, or `*` (RFC 9110 §8.8.3). */
const ENTITY_TAGS =
  '^(\\*|(W/)?"[\\x21\\x23-\\x7E]*"(\\s*,\\s*(W/)?"[\\x21\\x23-\\x7E]*")*)$';

/** The `{tenant}` path parameter every route of a tenant has. */
export const ApiTenant = () =>
  ApiParam({
    name: 'tenant',
    description: 'the tenant',
    schema: {
      type: 'string',
      pattern: TENANT_ID.source,
      maxLength: TENANT_ID_MAX_LENGTH,
      example: 'demo',
    },
  });

/** A route of the identity API: the tenant in the path, a token, and the errors all share. */
export const ApiIdentityRoute = (...statuses: number[]) =>
  applyDecorators(
    ApiBearerAuth('bearer'),
    ApiTenant(),
    ApiAccessToken(),
    ApiProblems(400, 401, 403, 406, 429, 500, 503, ...statuses),
  );

/** A route of the administration API: the tenant in the path, a tenant:admin app token. */
export const ApiAdminRoute = (...statuses: number[]) =>
  applyDecorators(
    ApiBearerAuth('admin_bearer'),
    ApiTenant(),
    ApiSecurity('admin_access_token'),
    // 404 everywhere: another tenant's admin token finds no administration.
    ApiProblems(
      ...new Set([400, 401, 403, 404, 406, 429, 500, 503, ...statuses]),
    ),
  );

/**
 * The token as a query parameter, which every authenticated route takes: a
 * security scheme (`in: query`) of its own, the alternative to the bearer
 * header, and not a parameter too, so that a client reads it as one or the
 * other, never both (which is a 400).
 */
export const ApiAccessToken = () => ApiSecurity('access_token');

/** GET answers: an ETag, and 304 to an If-None-Match that names it. */
export const ApiConditionalGet = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'answer 304, without a body, if the ETag is one of these',
      schema: { ...HEADER_VALUE, pattern: ENTITY_TAGS },
    }),
    ApiResponse({
      status: 304,
      description: 'not modified: If-None-Match names the current ETag',
      headers: headers(...RATE_LIMIT, 'ETag'),
    }),
  );

/** The If-Match header of PUT and DELETE. */
export const ApiIfMatch = (resource = 'the identity') =>
  ApiHeader({
    name: 'If-Match',
    required: false,
    description: `write only if ${resource} still has one of these ETags (\`*\`: any); 412 otherwise`,
    schema: { ...HEADER_VALUE, pattern: ENTITY_TAGS },
  });

/** The path segments an `{id}` can never be: they name the API's own collections, in any case. */
const anyCase = (word: string) =>
  word.replace(/[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);
const RESERVED = RESERVED_IDENTITY_IDS.map(anyCase).join('|');

/** A route that answers 204: what the answer means. */
export const NoContent = (description: string) =>
  applyDecorators(
    HttpCode(204),
    ApiNoContentResponse({ description, headers: headers(...RATE_LIMIT) }),
  );

/** The `{id}` path parameter. */
export const ApiIdentityId = () =>
  ApiParam({
    name: 'id',
    description:
      'an identityId; never accounts, friends or roles, which are paths of their own',
    schema: {
      type: 'string',
      pattern: `^(?!(?:${RESERVED})$)${IDENTITY_ID.source.slice(1)}`,
      maxLength: IDENTITY_ID_MAX_LENGTH,
      example: 'bob',
    },
  });

/** GET of an `{id}` that was merged into another identity. */
export const ApiMergedRedirect = () =>
  ApiResponse({
    status: 308,
    description:
      'the identity was merged into another: Location is the same path under it (for callers allowed to read it; 404 for others)',
    headers: headers(...RATE_LIMIT, 'Location'),
  });

/** `limit` and `cursor` of the friends and roles collections. */
export const ApiPaging = () =>
  applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      description: `at most this many elements (1–${MAX_PAGE_LIMIT}); a Link rel="next" header follows when there are more`,
      schema: {
        type: 'integer',
        format: 'int32',
        minimum: 1,
        maximum: MAX_PAGE_LIMIT,
      },
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      description: 'the opaque cursor of a Link rel="next" header',
      schema: {
        type: 'string',
        pattern: CURSOR.source,
        maxLength: CURSOR_MAX_LENGTH,
      },
    }),
  );

/**
 * A list of the caller's relations (`current`, at `/<of>`) or of `{id}`'s
 * (`relations`, at `/{id}/<of>`): its route, who may call it, its paging,
 * conditional answers, and the list it answers.
 */
export const RelationList = (
  of: 'friends' | 'roles',
  orderedBy: string,
  type: new () => object,
  who: 'current' | 'relations',
) =>
  applyDecorators(
    Get(who === 'current' ? of : `:id/${of}`),
    Access(who === 'current' ? 'current' : 'identity-relations'),
    ApiOperation({
      summary:
        who === 'current'
          ? `The ${of} of the caller`
          : `The ${of} of an identity`,
      description: `The whole list, or a page of it with limit. ${WHO[who]}`,
    }),
    ...(who === 'current'
      ? [ApiIdentityRoute()]
      : [ApiIdentityRoute(404), ApiIdentityId()]),
    ApiConditionalGet(),
    ...(who === 'current' ? [] : [ApiMergedRedirect()]),
    ApiPaging(),
    ApiOkResponse({
      description: `the ${of}, by ${orderedBy}`,
      type: [type],
      headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
    }),
  );
