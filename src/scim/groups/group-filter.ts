import { parse, type Filter } from 'scim2-parse-filter';
import { InvalidRequest } from '../../common/errors';
import { Prisma } from '../../generated/prisma/client';

/**
 * The Group attributes a filter may name, as SQL on the role aliased `r`.
 * displayName compares case-insensitively (the Group schema's caseExact is
 * false); ids compare exactly.
 */
const COLUMNS: Record<string, { sql: string; caseExact: boolean }> = {
  id: { sql: 'r.id', caseExact: true },
  displayname: { sql: 'r.name', caseExact: false },
  externalid: { sql: 'r.external_id', caseExact: true },
};

const MEMBER = new Set(['members', 'members.value']);

const invalid = (detail: string) =>
  new InvalidRequest(detail, undefined, 'invalidFilter');

/** A filter (RFC 7644 §3.4.2.2) on Groups as a parameterised SQL condition; TRUE without one. */
export function groupFilter(text: string | undefined): Prisma.Sql {
  if (text === undefined) return Prisma.sql`TRUE`;
  let filter: Filter;
  try {
    filter = parse(text);
  } catch {
    throw invalid(`The filter is not valid: ${text}`);
  }
  return condition(filter);
}

function condition(filter: Filter): Prisma.Sql {
  switch (filter.op) {
    case 'and':
    case 'or':
      return Prisma.sql`(${Prisma.join(filter.filters.map(condition), ` ${filter.op.toUpperCase()} `)})`;
    case 'not':
      return Prisma.sql`NOT (${condition(filter.filter)})`;
    case '[]':
      if (filter.attrPath.toLowerCase() !== 'members')
        throw invalid(
          `"${filter.attrPath}" is not a multi-valued attribute of a Group.`,
        );
      return membersWhere(filter.valFilter, 'value');
    default: {
      if (!isComparison(filter)) throw invalid('The filter is not valid.');
      const name = filter.attrPath.toLowerCase();
      if (MEMBER.has(name)) return membersWhere(filter, name);
      const column = COLUMNS[name];
      if (!column)
        throw invalid(
          `"${filter.attrPath}" cannot be filtered on; use id, displayName, externalId or members.value.`,
        );
      return compare(column, filter);
    }
  }
}

/** Some member of the role satisfies `filter` (on `value`, the identity id). */
function membersWhere(filter: Filter, path: string): Prisma.Sql {
  if (!isComparison(filter))
    throw invalid('A filter on members compares members.value only.');
  const name = filter.attrPath.toLowerCase();
  if (name !== path && name !== 'value' && !MEMBER.has(name))
    throw invalid(
      `"${filter.attrPath}" cannot be filtered on; members are filtered by value.`,
    );
  return Prisma.sql`EXISTS (SELECT 1 FROM role_assignment a
    WHERE a.tenant_id = r.tenant_id AND a.role_name = r.name
      AND ${compare({ sql: 'a.identity_id', caseExact: true }, filter)})`;
}

type Comparison = Extract<
  Filter,
  { attrPath: string; op: Exclude<Filter['op'], '[]'> }
>;

const isComparison = (filter: Filter): filter is Comparison =>
  'attrPath' in filter && filter.op !== '[]';

function compare(
  column: { sql: string; caseExact: boolean },
  filter: Comparison,
): Prisma.Sql {
  const raw = Prisma.raw(column.sql);
  if (filter.op === 'pr') return Prisma.sql`${raw} IS NOT NULL`;
  const value = filter.compValue;
  if (typeof value !== 'string')
    throw invalid(
      `"${filter.attrPath}" is a string; compare it with a string.`,
    );
  const [left, right] = column.caseExact
    ? [raw, Prisma.sql`${value}::text`]
    : [Prisma.sql`lower(${raw})`, Prisma.sql`lower(${value}::text)`];
  const like = (pattern: Prisma.Sql) => Prisma.sql`${left} LIKE ${pattern}`;
  const escaped = Prisma.sql`replace(replace(replace(${right}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;
  switch (filter.op) {
    case 'eq':
      return Prisma.sql`${left} = ${right}`;
    case 'ne':
      return Prisma.sql`${left} IS DISTINCT FROM ${right}`;
    case 'co':
      return like(Prisma.sql`'%' || ${escaped} || '%'`);
    case 'sw':
      return like(Prisma.sql`${escaped} || '%'`);
    case 'ew':
      return like(Prisma.sql`'%' || ${escaped}`);
    case 'gt':
      return Prisma.sql`${left} > ${right}`;
    case 'ge':
      return Prisma.sql`${left} >= ${right}`;
    case 'lt':
      return Prisma.sql`${left} < ${right}`;
    case 'le':
      return Prisma.sql`${left} <= ${right}`;
  }
}
