import { applyDecorators, HttpCode } from '@nestjs/common';
import { Access } from '../common/http/access.decorator';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { ScimType } from '../common/errors';
import { RouteNotFound } from '../common/errors';
import { ApiAccessToken, ApiTenant } from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { problemHeaders, PROBLEMS } from '../common/http/api-problems';
import { Route, type Verb } from '../common/http/route';
import { domainProblem } from '../common/http/problem';
import {
  SCIM_CONTENT_TYPE,
  SCIM_ERROR_SCHEMA,
  toScimError,
} from '../common/http/scim-error';

const SCIM_TYPES: ScimType[] = [
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
];

/** An error as every SCIM route answers it (RFC 7644 §3.12). */
export class ScimErrorResponse {
  @ApiProperty({ type: [String], enum: [SCIM_ERROR_SCHEMA] })
  schemas: string[];
  @ApiProperty({
    description: 'the HTTP status, as a string',
    pattern: '^[45][0-9][0-9]$',
    example: '400',
  })
  status: string;
  @ApiPropertyOptional({ enum: SCIM_TYPES, example: 'invalidFilter' })
  scimType?: ScimType;
  @ApiProperty({ example: 'The filter is not valid: …' })
  detail: string;
}

const AT = '/demo/scim/v2/Users';
const NOT_FOUND = toScimError(domainProblem(new RouteNotFound(AT), AT));

/** The documented SCIM error answer of one status, its headers and examples. */
function scimErrorResponse(status: number) {
  const doc = PROBLEMS[status];
  const examples =
    status === 404
      ? { 'not-found': NOT_FOUND }
      : Object.fromEntries(
          Object.entries(doc.examples).map(([name, problem]) => [
            name,
            toScimError(problem),
          ]),
        );
  return {
    status,
    description: status === 404 ? 'no such resource' : doc.description,
    headers: problemHeaders(doc),
    content: {
      [SCIM_CONTENT_TYPE]: {
        schema: {
          allOf: [
            { $ref: getSchemaPath(ScimErrorResponse) },
            { properties: { status: { enum: [String(status)] } } },
          ],
        },
        examples: Object.fromEntries(
          Object.entries(examples).map(([name, value]) => [name, { value }]),
        ),
      },
    },
  };
}

/**
 * A route of the SCIM service provider: app tokens with scim:provision
 * only, and its documentation (tenant, token, SCIM errors).
 */
export const ScimRoute = (...statuses: number[]) =>
  applyDecorators(
    Access('scim'),
    ApiBearerAuth('bearer'),
    ApiAccessToken(),
    ApiTenant(),
    ApiExtraModels(ScimErrorResponse),
    ...[400, 401, 403, 406, 429, 431, 500, 503, ...statuses].map((status) =>
      ApiResponse(scimErrorResponse(status)),
    ),
  );

const DELETED = ApiResponse({
  status: 204,
  description: 'deleted',
  headers: headers(...RATE_LIMIT),
});

/**
 * A resource's operation: its method and path (below the controller's), the
 * status RFC 7644 gives its success (201 for a POST that creates, 200 for a
 * search, 204 for a DELETE, 200 otherwise), and what every SCIM route has
 * (ScimRoute) with the problems it adds.
 */
export const ScimOperation = (
  method: Verb,
  path: string,
  ...problems: number[]
) =>
  applyDecorators(
    Route(method, path),
    ...(method === 'DELETE' ? [HttpCode(204), DELETED] : []),
    ...(method === 'POST' && path.endsWith('.search') ? [HttpCode(200)] : []),
    ScimRoute(...problems),
  );

/** A SCIM answer's body: application/scim+json of that schema. */
export const scimContent = (schema: object) => ({
  [SCIM_CONTENT_TYPE]: { schema },
});

const TEXT = (maxLength: number, description?: string) => ({
  type: 'string',
  maxLength,
  pattern: '^[^\\u0000]*$',
  ...(description && { description }),
});
const SCHEMAS = (...urns: string[]) => ({
  type: 'array',
  minItems: 1,
  maxItems: 8,
  items: { type: 'string', enum: urns },
  example: [urns[0]],
});
const PATHS = {
  oneOf: [
    { type: 'array', maxItems: 100, items: TEXT(1024) },
    TEXT(8192, 'comma-separated'),
  ],
};
const INDEX = {
  type: 'integer',
  format: 'int32',
  minimum: -999999999,
  maximum: 999999999,
};

/** A SearchRequest (RFC 7644 §3.4.3): the query of a GET, as a body. */
export const SEARCH_REQUEST_BODY = {
  type: 'object',
  properties: {
    schemas: SCHEMAS('urn:ietf:params:scim:api:messages:2.0:SearchRequest'),
    attributes: PATHS,
    excludedAttributes: PATHS,
    filter: {
      ...TEXT(2048, 'a SCIM filter (at most 20 comparisons, 8 levels)'),
      minLength: 1,
    },
    startIndex: INDEX,
    count: INDEX,
    sortBy: TEXT(1024, 'ignored'),
    sortOrder: { type: 'string', enum: ['ascending', 'descending'] },
  },
};

/** A PatchOp (RFC 7644 §3.5.2): at most 500 operations. */
export const PATCH_OP_BODY = {
  type: 'object',
  required: ['schemas', 'Operations'],
  properties: {
    schemas: SCHEMAS('urn:ietf:params:scim:api:messages:2.0:PatchOp'),
    Operations: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      items: {
        type: 'object',
        required: ['op'],
        properties: {
          op: {
            type: 'string',
            description: 'add, replace or remove, in any case',
            maxLength: 7,
            pattern: '^[A-Za-z]{3,7}$',
          },
          path: TEXT(1024, 'an attribute path of the resource’s schemas'),
          value: {
            description:
              'the value: a string, number, boolean, object or array (at most 100 values in any one array or object)',
          },
        },
      },
    },
  },
};

/** A User as POST and PUT take it: userName is required. */
export const USER_BODY = {
  type: 'object',
  required: ['userName'],
  additionalProperties: true,
  properties: {
    schemas: SCHEMAS(
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:identity:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ),
    userName: {
      ...TEXT(512, 'unique in the tenant in any case'),
      minLength: 1,
    },
    externalId: TEXT(512),
    displayName: TEXT(512),
    active: { type: 'boolean' },
  },
};
