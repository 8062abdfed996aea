import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches } from 'class-validator';
import { maxHeaderSize } from 'node:http';
import { STORABLE_TEXT } from '../common/validation/field-rules';
import { MAX_RESULTS } from './scim-discovery.service';
import { FILTER_LIMITS } from './scim-filter';

// Within the request's 16 KiB of head (431 past it), as header values are.
const TEXT = { maxLength: maxHeaderSize / 2, pattern: STORABLE_TEXT.source };

/** A parameter's text: storable (checked first), given once. */
const IsParameterText = () =>
  applyDecorators(
    Matches(STORABLE_TEXT, { message: 'must not contain U+0000' }),
    IsString({ message: 'must be given once' }),
  );

/**
 * A list of attribute paths may come as repeated parameters
 * (`attributes=a&attributes=b`, as common SCIM clients send it): the same
 * as one comma-separated value.
 */
const joined = Transform(({ value }: { value: unknown }) =>
  Array.isArray(value) && value.every((v) => typeof v === 'string')
    ? value.join(',')
    : value,
);
const INTEGER = /^-?\d{1,9}$/;

/** `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5). */
export class ScimAttributesQuery {
  @ApiPropertyOptional({
    description: 'comma-separated attribute paths: return only those (and id)',
    example: 'userName,emails.value',
    ...TEXT,
  })
  @IsOptional()
  @joined
  @IsParameterText()
  attributes?: string;

  @ApiPropertyOptional({
    description: 'comma-separated attribute paths: return all but those',
    example: 'urn:ietf:params:scim:schemas:extension:identity:2.0:User',
    ...TEXT,
  })
  @IsOptional()
  @joined
  @IsParameterText()
  excludedAttributes?: string;
}

/** Paging of a list (RFC 7644 §3.4.2.4), with attribute selection. */
export class ScimPageQuery extends ScimAttributesQuery {
  @ApiPropertyOptional({
    description: 'the 1-based index of the first result; below 1 counts as 1',
    type: 'integer',
    format: 'int32',
    minimum: -999999999,
    maximum: 999999999,
    default: 1,
  })
  @IsOptional()
  @Matches(INTEGER, { message: 'must be a whole number' })
  startIndex?: string;

  @ApiPropertyOptional({
    description: `at most this many results (capped at ${MAX_RESULTS}); 0 answers the count only`,
    type: 'integer',
    format: 'int32',
    minimum: -999999999,
    maximum: 999999999,
    default: MAX_RESULTS,
  })
  @IsOptional()
  @Matches(INTEGER, { message: 'must be a whole number' })
  count?: string;
}

/** `filter` of a list (RFC 7644 §3.4.2.2); `description` names what it may compare. */
const FilterParameter = (description: string, example: string) =>
  applyDecorators(
    ApiPropertyOptional({
      description,
      example,
      ...TEXT,
      minLength: 1,
      maxLength: FILTER_LIMITS.length,
    }),
    IsOptional(),
    IsParameterText(),
  );

/** The query of GET /Users (RFC 7644 §3.4.2). */
export class ScimListQuery extends ScimPageQuery {
  @FilterParameter(
    'a SCIM filter on userName, externalId, id, emails.value, displayName, active, meta.lastModified or meta.created',
    'userName eq "ada@example.org"',
  )
  filter?: string;
}

/** The query of GET /Groups (RFC 7644 §3.4.2). */
export class ScimGroupListQuery extends ScimPageQuery {
  @FilterParameter(
    'a SCIM filter on id, displayName, externalId or members.value',
    'displayName eq "admin"',
  )
  filter?: string;
}

/**
 * The page a query asks for: startIndex below 1 is read as 1 and a negative
 * count as 0 (RFC 7644 §3.4.2.4); a count above MAX_RESULTS is reduced to it.
 */
export function pageOf(query: ScimPageQuery): {
  startIndex: number;
  count: number;
} {
  return {
    startIndex: Math.max(1, Number(query.startIndex ?? 1)),
    count: Math.min(
      Math.max(0, Number(query.count ?? MAX_RESULTS)),
      MAX_RESULTS,
    ),
  };
}
