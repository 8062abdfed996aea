import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  getSchemaPath,
} from '@nestjs/swagger';
import { ProblemResponse } from './problem.dto';

const PROBLEMS: Record<number, string> = {
  400: 'invalid request (values, fields, two tokens, malformed JSON)',
  401: 'no valid token for this tenant',
  403: 'not permitted (disabled identity, missing scope, app token on a current-identity path)',
  404: 'no such identity, or not visible to the caller',
  406: 'Accept excludes JSON',
  412: 'If-Match does not match',
  413: 'body over 64 KiB',
  415: 'body not application/json',
  429: 'rate limit exceeded (see Retry-After)',
  503: 'database unreachable (see Retry-After)',
};

/** Documents the problem+json answers a route can give. */
export const ApiProblems = (...statuses: number[]) =>
  applyDecorators(
    ApiExtraModels(ProblemResponse),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: PROBLEMS[status],
        content: {
          'application/problem+json': {
            schema: { $ref: getSchemaPath(ProblemResponse) },
          },
        },
      }),
    ),
  );

/** A route of the identity API: the tenant in the path, a token, and the errors all share. */
export const ApiIdentityRoute = (...statuses: number[]) =>
  applyDecorators(
    ApiBearerAuth('bearer'),
    ApiSecurity('access_token'),
    ApiParam({
      name: 'tenant',
      description: 'the tenant',
      schema: { type: 'string', example: 'demo' },
    }),
    ApiQuery({
      name: 'access_token',
      required: false,
      description:
        'the token, instead of the Authorization header (never both)',
      schema: { type: 'string' },
    }),
    ApiProblems(400, 401, 403, 406, 429, 503, ...statuses),
  );

/** The `{id}` path parameter. */
export const ApiIdentityId = () =>
  ApiParam({
    name: 'id',
    description: 'an identityId',
    schema: { type: 'string', example: 'bob' },
  });

/** `limit` and `cursor` of the friends and roles collections. */
export const ApiPaging = () =>
  applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      description:
        'at most this many elements (1–1000); a Link rel="next" header follows when there are more',
      schema: { type: 'integer', minimum: 1, maximum: 1000 },
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      description: 'the opaque cursor of a Link rel="next" header',
      schema: { type: 'string' },
    }),
  );

/** The Link header of a page that has a next one. */
export const LINK = {
  Link: {
    description:
      'RFC 8288 link to the next page (rel="next"), when there is one',
    schema: { type: 'string' },
  },
};
