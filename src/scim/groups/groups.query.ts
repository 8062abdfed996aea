import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { InvalidRequest } from '../../common/errors';

/** The most Groups one page holds; a larger `count` is reduced to it. */
export const MAX_GROUPS = 200;

/** `attributes` / `excludedAttributes` (RFC 7644 §3.9). */
export class GroupQuery {
  @ApiPropertyOptional({
    description: 'attributes to return (id, schemas and meta always are)',
    example: 'displayName',
  })
  @IsOptional()
  @IsString()
  attributes?: string;
  @ApiPropertyOptional({
    description: 'attributes to leave out',
    example: 'members',
  })
  @IsOptional()
  @IsString()
  excludedAttributes?: string;
}

/** A query of Groups (RFC 7644 §3.4.2). */
export class GroupListQuery extends GroupQuery {
  @ApiPropertyOptional({
    description:
      'a SCIM filter on id, displayName, externalId or members.value',
    example: 'displayName eq "admin"',
  })
  @IsOptional()
  @IsString()
  filter?: string;
  @ApiPropertyOptional({
    description: '1-based index of the first result',
    example: '1',
    pattern: '^-?[0-9]{1,9}$',
  })
  @IsOptional()
  @IsString()
  startIndex?: string;
  @ApiPropertyOptional({
    description: `results per page, at most ${MAX_GROUPS}`,
    example: '100',
    pattern: '^-?[0-9]{1,9}$',
  })
  @IsOptional()
  @IsString()
  count?: string;
}

/**
 * startIndex below 1 is read as 1 and a negative count as 0 (RFC 7644
 * §3.4.2.4); a count above the maximum is reduced to it.
 */
export function pageOfGroups(query: GroupListQuery): {
  startIndex: number;
  count: number;
} {
  const integer = (
    name: string,
    value: string | undefined,
    fallback: number,
  ) => {
    if (value === undefined) return fallback;
    if (!/^-?[0-9]{1,9}$/.test(value))
      throw new InvalidRequest(`${name} must be an integer.`);
    return Number(value);
  };
  return {
    startIndex: Math.max(1, integer('startIndex', query.startIndex, 1)),
    count: Math.min(
      MAX_GROUPS,
      Math.max(0, integer('count', query.count, MAX_GROUPS)),
    ),
  };
}
