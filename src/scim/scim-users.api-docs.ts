import { ApiBody, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { ApiIfMatch } from '../common/http/api-docs';
import { stack } from '../common/http/route';
import {
  headers,
  RATE_LIMIT,
  type ResponseHeader,
} from '../common/http/api-headers';
import {
  IDENTITY_ID,
  IDENTITY_ID_MAX_LENGTH,
} from '../common/validation/field-rules';
import {
  PATCH_OP_BODY,
  ScimOperation,
  scimContent,
  SEARCH_REQUEST_BODY,
  USER_BODY,
} from './scim-api-docs';

const RESOURCE = { type: 'object', additionalProperties: true };
const answer = (
  status: number,
  description: string,
  ...extra: ResponseHeader[]
) =>
  ApiResponse({
    status,
    description,
    headers: headers(...RATE_LIMIT, 'ETag', ...extra),
    content: scimContent(RESOURCE),
  });
const LIST = ApiResponse({
  status: 200,
  description: 'a ListResponse',
  headers: headers(...RATE_LIMIT),
  content: scimContent(RESOURCE),
});
const ID = ApiParam({
  name: 'id',
  description: 'the identityId',
  schema: {
    type: 'string',
    pattern: IDENTITY_ID.source,
    maxLength: IDENTITY_ID_MAX_LENGTH,
  },
});
const IF_MATCH = ApiIfMatch();
const BODY = ApiBody({
  schema: USER_BODY,
  description: 'a SCIM User (application/scim+json or application/json)',
});

/** Each User route: its method and path, status, access rule and documentation. */
const ROUTES = {
  list: [
    ScimOperation('GET', ''),
    ApiOperation({
      summary: 'Users a filter matches, a page at a time',
      description:
        'filter, startIndex and count (paged by id), attributes or excludedAttributes. sortBy is not supported and is ignored.',
    }),
    LIST,
  ],
  search: [
    ScimOperation('POST', '.search', 413, 415),
    ApiOperation({
      summary: 'Users a SearchRequest matches (RFC 7644 §3.4.3)',
      description:
        'The query of GET /Users as a body: filter, startIndex, count, attributes or excludedAttributes (each a list or a comma-separated string).',
    }),
    ApiBody({ schema: SEARCH_REQUEST_BODY }),
    LIST,
  ],
  create: [
    ScimOperation('POST', '', 409, 413, 415),
    ApiOperation({
      summary: 'Create a User',
      description:
        'The service assigns its id. userName is required and unique in the tenant (409 uniqueness).',
    }),
    BODY,
    answer(201, 'the new User', 'Location'),
  ],
  get: [
    ScimOperation('GET', ':id', 404),
    ApiOperation({
      summary: 'A User',
      description: 'attributes or excludedAttributes reduce it.',
    }),
    ID,
    answer(200, 'the User'),
  ],
  replace: [
    ScimOperation('PUT', ':id', 404, 409, 412, 413, 415),
    ApiOperation({
      summary: 'Replace a User',
      description:
        'Attributes left out are cleared; the identity extension only when the body carries it. Read-only attributes are ignored.',
    }),
    ID,
    IF_MATCH,
    BODY,
    answer(200, 'the User'),
  ],
  patch: [
    ScimOperation('PATCH', ':id', 404, 409, 412, 413, 415),
    ApiOperation({
      summary: 'Change a User with add, replace and remove operations',
      description:
        'RFC 7644 §3.5.2, with or without path, value filters included; op names in any case, and "True"/"False" strings for booleans, as Entra ID sends them.',
    }),
    ID,
    IF_MATCH,
    ApiBody({ schema: PATCH_OP_BODY, description: 'a PatchOp' }),
    answer(200, 'the User'),
  ],
  delete: [
    ScimOperation('DELETE', ':id', 404, 412),
    ApiOperation({
      summary: 'Delete a User',
      description:
        'As the identity API deletes: with its accounts, friendships, roles and tokens, in one transaction.',
    }),
    ID,
    IF_MATCH,
  ],
} as const;

/** A User route. */
export const UserRoute = (route: keyof typeof ROUTES) =>
  stack(...ROUTES[route]);
