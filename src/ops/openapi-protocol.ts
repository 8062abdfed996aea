import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  PathItemObject,
} from '@nestjs/swagger';
import { maxHeaderSize } from 'node:http';
import { headers, RESPONSE_HEADERS } from '../common/http/api-headers';
import { problemResponse } from '../common/http/api-problems';
import { METHODS } from '../common/http/route-table';

// What @nestjs/swagger cannot say from the controllers: the answers given
// before routing (OPTIONS, 405), the headers every answer carries, and that
// the service writes no field its schemas leave out.

export const PROTOCOL_TAG = 'http';
const PROBLEM = '#/components/schemas/ProblemResponse';

const allowHeader = (value: string): HeaderObject => ({
  required: true,
  description: 'the methods this path allows',
  schema: { type: 'string', enum: [value] },
});

const operationsOf = (item: PathItemObject) =>
  ['options', ...METHODS.map((m) => m.toLowerCase())]
    .map((method) => item[method as 'get'])
    .filter((operation): operation is OperationObject => !!operation);

/**
 * A path's OPTIONS, and its 405 to any other method (answered as
 * http-policy.ts does, with the same Allow). OpenAPI has no place for
 * answers to methods a path does not have, so each operation lists the 405.
 */
function addAllow(item: PathItemObject): void {
  const documented = new Set(Object.keys(item).map((m) => m.toUpperCase()));
  if (documented.has('GET')) documented.add('HEAD');
  const allow = METHODS.filter((m) => documented.has(m)).join(', ');
  for (const operation of operationsOf(item)) {
    const refused = problemResponse(405, PROBLEM);
    refused.headers = { ...refused.headers, Allow: allowHeader(allow) };
    operation.responses[405] = refused;
  }
  // A path's OPTIONS is named after its GET, or else its first operation.
  const get = item.get ?? [...operationsOf(item)][0];
  const name = get.operationId!;
  item.options = {
    operationId: item.get
      ? name.replace(/^get/, 'options')
      : `options${name[0].toUpperCase()}${name.slice(1)}`,
    summary: 'The methods this path allows',
    description: `Answers 204 with \`Allow: OPTIONS, ${allow}\`, for any tenant and without a token; other methods than these are answered 405 with the same list.`,
    tags: [PROTOCOL_TAG],
    // Answered before authentication: no token needed, no budget used.
    security: [],
    // Any value is answered: the path parameters keep only what makes a
    // path segment.
    parameters: get
      .parameters!.filter((p) => 'in' in p && p.in === 'path')
      .map((p) => ({
        ...p,
        description: `${'description' in p ? `${p.description}; ` : ''}any value: OPTIONS does not look it up`,
        // One path segment, within the request line's room (431 past it).
        schema: {
          type: 'string',
          maxLength: maxHeaderSize / 2,
          pattern: '^[^/]+$',
        },
      })),
    responses: {
      204: {
        description: 'no content; Allow lists the methods',
        headers: { Allow: allowHeader(`OPTIONS, ${allow}`) },
      },
      400: problemResponse(400, PROBLEM, ['malformed-path']),
      500: problemResponse(500, PROBLEM),
    },
  };
}

/** Post-processes the document @nestjs/swagger generated from the controllers. */
export function addProtocol(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    headers: RESPONSE_HEADERS,
  };
  const everywhere = headers('X-Request-Id', 'Cache-Control');
  for (const item of Object.values(document.paths)) {
    addAllow(item);
    for (const operation of operationsOf(item)) {
      // Node answers it before any route, for every path (SCIM routes
      // document it as a SCIM error themselves).
      operation.responses[431] ??= problemResponse(431, PROBLEM);
      for (const response of Object.values(operation.responses))
        if (response && !('$ref' in response))
          response.headers = { ...everywhere, ...response.headers };
    }
  }
  for (const schema of Object.values(document.components.schemas ?? {}))
    if ('type' in schema && schema.type === 'object')
      schema.additionalProperties ??= false;
  return document;
}
