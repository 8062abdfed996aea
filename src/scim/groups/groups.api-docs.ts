import { applyDecorators, HttpCode } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiParam,
  ApiResponse,
} from '@nestjs/swagger';
import { ApiIfMatch } from '../../common/http/api-docs';
import { headers, RATE_LIMIT } from '../../common/http/api-headers';
import {
  IDENTITY_ID,
  IDENTITY_ID_MAX_LENGTH,
} from '../../common/validation/field-rules';
import {
  ScimOperation,
  scimContent,
  SEARCH_REQUEST_BODY,
} from '../scim-api-docs';

/** A string of at most `max` characters (no NUL, which PostgreSQL cannot store). */
const text = (max: number, extra: object = {}) => ({
  type: 'string',
  maxLength: max,
  pattern: '^[^\\u0000]*$',
  ...extra,
});
const count = {
  type: 'integer',
  format: 'int32',
  minimum: 0,
  maximum: 2147483647,
};

const MEMBER = {
  type: 'object',
  required: ['value'],
  properties: {
    value: {
      type: 'string',
      description: 'the id of the User (an identityId)',
      pattern: IDENTITY_ID.source,
      maxLength: IDENTITY_ID_MAX_LENGTH,
    },
    $ref: text(2048, { description: "the User's location" }),
    display: text(512, { description: "the identity's display name" }),
    type: { type: 'string', enum: ['User'] },
  },
};

const GROUP = {
  type: 'object',
  required: ['schemas', 'id', 'meta'],
  properties: {
    schemas: {
      type: 'array',
      items: {
        type: 'string',
        enum: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      },
    },
    id: {
      type: 'string',
      description: "the role's id: it stays the same when the role is renamed",
    },
    externalId: { type: 'string' },
    displayName: { type: 'string', description: 'the name of the role' },
    members: { type: 'array', items: MEMBER },
    meta: {
      type: 'object',
      required: [
        'resourceType',
        'created',
        'lastModified',
        'version',
        'location',
      ],
      properties: {
        resourceType: { type: 'string', enum: ['Group'] },
        created: { type: 'string', format: 'date-time' },
        lastModified: { type: 'string', format: 'date-time' },
        version: { type: 'string', example: 'W/"3kJqXcB5b8sYV0m1A2Zx9Q"' },
        location: { type: 'string', format: 'uri' },
      },
    },
  },
};

const LIST = {
  type: 'object',
  required: [
    'schemas',
    'totalResults',
    'startIndex',
    'itemsPerPage',
    'Resources',
  ],
  properties: {
    schemas: {
      type: 'array',
      items: {
        type: 'string',
        enum: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      },
    },
    totalResults: count,
    startIndex: { ...count, minimum: 1 },
    itemsPerPage: count,
    Resources: { type: 'array', items: GROUP },
  },
};

const WRITE = {
  type: 'object',
  required: ['displayName'],
  properties: {
    schemas: { type: 'array', maxItems: 10, items: text(512) },
    displayName: text(512, { minLength: 1 }),
    externalId: text(512),
    members: { type: 'array', maxItems: 10000, items: MEMBER },
  },
};

const PATCH = {
  type: 'object',
  required: ['Operations'],
  properties: {
    schemas: {
      type: 'array',
      maxItems: 10,
      items: {
        type: 'string',
        enum: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      },
    },
    Operations: {
      type: 'array',
      minItems: 1,
      maxItems: 10000,
      items: {
        type: 'object',
        required: ['op'],
        properties: {
          op: text(7, {
            description: 'add, remove or replace, in any case',
            pattern: '^[A-Za-z]{3,7}$',
          }),
          path: text(1024, { example: 'members[value eq "ada"]' }),
          value: {},
        },
      },
    },
  },
};

const ETAG = {
  ETag: {
    description: "the Group's version, as meta.version",
    schema: { type: 'string' },
  },
};
const ID = ApiParam({
  name: 'id',
  description: "the Group's id",
  schema: text(64, { pattern: '^[0-9A-Za-z-]{1,64}$' }),
});
const IF_MATCH = ApiIfMatch('the Group');
const body = (schema: object) =>
  applyDecorators(
    ApiConsumes('application/scim+json', 'application/json'),
    ApiBody({ required: true, schema }),
  );

/** Each Group route: its method and path, status, access rule and documentation. */
const ROUTES = {
  list: [
    ScimOperation('GET', 'Groups'),
    ApiOperation({
      summary: 'Query Groups',
      description:
        "A page of the tenant's roles as Groups, by name; filter on id, displayName, externalId or members.value.",
    }),
    ApiResponse({
      status: 200,
      description: 'a ListResponse of Groups',
      headers: headers(...RATE_LIMIT),
      content: scimContent(LIST),
    }),
  ],
  search: [
    ScimOperation('POST', 'Groups/.search', 413, 415),
    ApiOperation({
      summary: 'Query Groups with a SearchRequest (RFC 7644 §3.4.3)',
      description:
        'The query of GET /Groups as a body: filter, startIndex, count, attributes or excludedAttributes.',
    }),
    body(SEARCH_REQUEST_BODY),
    ApiResponse({
      status: 200,
      description: 'a ListResponse of Groups',
      headers: headers(...RATE_LIMIT),
      content: scimContent(LIST),
    }),
  ],
  create: [
    ScimOperation('POST', 'Groups', 409, 413, 415),
    ApiOperation({
      summary: 'Create a Group',
      description:
        'A new role, with its members; 409 when a role of that name exists.',
    }),
    body(WRITE),
    ApiResponse({
      status: 201,
      description: 'the Group',
      headers: {
        ...headers(...RATE_LIMIT),
        ...ETAG,
        Location: { description: 'meta.location', schema: { type: 'string' } },
      },
      content: scimContent(GROUP),
    }),
  ],
  get: [
    ScimOperation('GET', 'Groups/:id', 404),
    ApiOperation({
      summary: 'Read a Group',
      description: 'The role with its members.',
    }),
    ID,
    ApiResponse({
      status: 200,
      description: 'the Group',
      headers: { ...headers(...RATE_LIMIT), ...ETAG },
      content: scimContent(GROUP),
    }),
  ],
  replace: [
    ScimOperation('PUT', 'Groups/:id', 404, 409, 412, 413, 415),
    ApiOperation({
      summary: 'Replace a Group',
      description: 'Its name, externalId and all its members.',
    }),
    ID,
    IF_MATCH,
    body(WRITE),
    ApiResponse({
      status: 200,
      description: 'the Group',
      headers: { ...headers(...RATE_LIMIT), ...ETAG },
      content: scimContent(GROUP),
    }),
  ],
  patch: [
    ScimOperation('PATCH', 'Groups/:id', 404, 409, 412, 413, 415),
    HttpCode(204),
    ApiOperation({
      summary: 'Modify a Group',
      description:
        'Add, remove or replace members, rename it, set its externalId (RFC 7644 §3.5.2).',
    }),
    ID,
    IF_MATCH,
    body(PATCH),
    ApiResponse({
      status: 204,
      description: 'changed',
      headers: { ...headers(...RATE_LIMIT), ...ETAG },
    }),
  ],
  delete: [
    ScimOperation('DELETE', 'Groups/:id', 404, 412),
    ApiOperation({
      summary: 'Delete a Group',
      description: 'The role goes, and every identity that held it loses it.',
    }),
    ID,
    IF_MATCH,
  ],
} as const;

/** A Group route. */
export const GroupRoute = (route: keyof typeof ROUTES) =>
  applyDecorators(...ROUTES[route]);
