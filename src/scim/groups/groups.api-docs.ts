import { applyDecorators } from '@nestjs/common';
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
import { ScimRoute, scimContent, SEARCH_REQUEST_BODY } from '../scim-api-docs';

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

/** The documentation of each Group route. */
const ROUTES = {
  list: [
    ApiOperation({
      summary: 'Query Groups',
      description:
        "A page of the tenant's roles as Groups, by name; filter on id, displayName, externalId or members.value.",
    }),
    ScimRoute(),
    ApiResponse({
      status: 200,
      description: 'a ListResponse of Groups',
      headers: headers(...RATE_LIMIT),
      content: scimContent(LIST),
    }),
  ],
  search: [
    ApiOperation({
      summary: 'Query Groups with a SearchRequest (RFC 7644 §3.4.3)',
      description:
        'The query of GET /Groups as a body: filter, startIndex, count, attributes or excludedAttributes.',
    }),
    ScimRoute(413, 415),
    body(SEARCH_REQUEST_BODY),
    ApiResponse({
      status: 200,
      description: 'a ListResponse of Groups',
      headers: headers(...RATE_LIMIT),
      content: scimContent(LIST),
    }),
  ],
  create: [
    ApiOperation({
      summary: 'Create a Group',
      description:
        'A new role, with its members; 409 when a role of that name exists.',
    }),
    ScimRoute(409, 413, 415),
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
    ApiOperation({
      summary: 'Read a Group',
      description: 'The role with its members.',
    }),
    ScimRoute(404),
    ID,
    ApiResponse({
      status: 200,
      description: 'the Group',
      headers: { ...headers(...RATE_LIMIT), ...ETAG },
      content: scimContent(GROUP),
    }),
  ],
  replace: [
    ApiOperation({
      summary: 'Replace a Group',
      description: 'Its name, externalId and all its members.',
    }),
    ScimRoute(404, 409, 412, 413, 415),
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
    ApiOperation({
      summary: 'Modify a Group',
      description:
        'Add, remove or replace members, rename it, set its externalId (RFC 7644 §3.5.2).',
    }),
    ScimRoute(404, 409, 412, 413, 415),
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
    ApiOperation({
      summary: 'Delete a Group',
      description: 'The role goes, and every identity that held it loses it.',
    }),
    ScimRoute(404, 412),
    ID,
    IF_MATCH,
    ApiResponse({
      status: 204,
      description: 'deleted',
      headers: headers(...RATE_LIMIT),
    }),
  ],
} as const;

export const ApiGroupRoute = (route: keyof typeof ROUTES) =>
  applyDecorators(...ROUTES[route]);
