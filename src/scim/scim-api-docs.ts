import { applyDecorators } from '@nestjs/common';
import { Access } from '../auth/access.decorator';
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
import { ApiTenant } from '../common/http/api-docs';
import { problemHeaders, PROBLEMS } from '../common/http/api-problems';
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
    ApiTenant(),
    ApiExtraModels(ScimErrorResponse),
    ...[400, 401, 403, 406, 429, 500, 503, ...statuses].map((status) =>
      ApiResponse(scimErrorResponse(status)),
    ),
  );

/** A SCIM answer's body: application/scim+json of that schema. */
export const scimContent = (schema: object) => ({
  [SCIM_CONTENT_TYPE]: { schema },
});
