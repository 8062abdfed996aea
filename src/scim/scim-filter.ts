import { Filter, parse } from 'scim2-parse-filter';
import { InvalidRequest } from '../common/errors';
import { Prisma } from '../generated/prisma/client';
import { USER_SCHEMA } from './scim-schemas';

/** How an attribute is compared: its SQL, its kind, and whether case matters. */
interface Filterable {
  sql: Prisma.Sql;
  kind: 'text' | 'texts' | 'flag' | 'time';
  caseExact?: boolean;
}

/** What a filter may name, by lower-case attribute path; columns of identity `i`. */
export type FilterAttributes = Record<string, Filterable>;

const invalidFilter = (detail: string) =>
  new InvalidRequest(
    `The filter is not valid: ${detail}`,
    undefined,
    'invalidFilter',
  );

const COMPARISONS: Record<string, string> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
};

/** `%`, `_` and the escape character itself match literally in LIKE. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, '\\$&');

const LIKE: Record<string, (v: string) => string> = {
  co: (v) => `%${escapeLike(v)}%`,
  sw: (v) => `${escapeLike(v)}%`,
  ew: (v) => `%${escapeLike(v)}`,
};

/**
 * A SCIM filter (RFC 7644 §3.4.2.2) as an SQL condition with bound values.
 * The parser is scim2-parse-filter; this turns its tree into SQL over the
 * attributes given, and refuses (400 invalidFilter) anything else: an
 * unknown attribute, an operator the attribute has no meaning for, a value
 * of the wrong type. Each comparison is false, never unknown, when the
 * attribute has no value, so that `not` means what a client expects.
 */
export function filterToSql(
  filter: string,
  attributes: FilterAttributes,
  schema = USER_SCHEMA,
): Prisma.Sql {
  let tree: Filter;
  try {
    tree = parse(filter);
  } catch {
    throw invalidFilter(`cannot parse "${filter.slice(0, 200)}".`);
  }
  const attribute = (path: string) => {
    const lower = path.toLowerCase();
    const prefix = `${schema.toLowerCase()}:`;
    const name = lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
    const found = attributes[name];
    if (!found) throw invalidFilter(`"${path}" cannot be filtered on.`);
    return found;
  };
  const toSql = (node: Filter): Prisma.Sql => {
    switch (node.op) {
      case 'and':
      case 'or':
        return Prisma.sql`(${Prisma.join(
          node.filters.map(toSql),
          node.op === 'and' ? ' AND ' : ' OR ',
        )})`;
      case 'not':
        return Prisma.sql`NOT (${toSql(node.filter)})`;
      case '[]':
        return valuePath(node.attrPath, node.valFilter);
      case 'pr':
        return present(attribute(node.attrPath));
      default:
        return compare(
          attribute(node.attrPath),
          node.op,
          node.compValue,
          node.attrPath,
        );
    }
  };
  const valuePath = (path: string, inner: Filter): Prisma.Sql => {
    if (!('attrPath' in inner) || inner.attrPath.toLowerCase() !== 'value')
      throw invalidFilter(`only the value of "${path}" can be filtered on.`);
    return toSql({ ...inner, attrPath: `${path}.value` } as Filter);
  };
  try {
    return toSql(tree);
  } catch (error) {
    if (error instanceof InvalidRequest) throw error;
    throw invalidFilter(`cannot parse "${filter.slice(0, 200)}".`);
  }
}

function present({ sql, kind }: Filterable): Prisma.Sql {
  if (kind === 'texts') return Prisma.sql`cardinality(${sql}) > 0`;
  if (kind === 'text') return Prisma.sql`coalesce(${sql} <> '', false)`;
  return Prisma.sql`(${sql}) IS NOT NULL`;
}

function compare(
  { sql, kind, caseExact }: Filterable,
  op: string,
  value: unknown,
  path: string,
): Prisma.Sql {
  if (kind === 'flag') {
    if ((op !== 'eq' && op !== 'ne') || typeof value !== 'boolean')
      throw invalidFilter(`"${path}" takes eq or ne with true or false.`);
    return Prisma.sql`(${sql}) ${Prisma.raw(COMPARISONS[op])} ${value}`;
  }
  if (typeof value !== 'string')
    throw invalidFilter(`"${path}" is compared with a string.`);
  if (kind === 'time') {
    const time = new Date(value);
    const year = time.getUTCFullYear();
    // PostgreSQL's timestamps run from 4713 BC to AD 294276.
    if (LIKE[op] || Number.isNaN(year) || year < 1 || year > 294275)
      throw invalidFilter(
        `"${path}" is compared (eq, ne, gt, ge, lt, le) with a date and time.`,
      );
    return Prisma.sql`${sql} ${Prisma.raw(COMPARISONS[op])} ${time}`;
  }
  const fold = (s: Prisma.Sql) => (caseExact ? s : Prisma.sql`lower(${s})`);
  const operand = fold(Prisma.sql`${LIKE[op] ? LIKE[op](value) : value}`);
  const condition = (column: Prisma.Sql) =>
    LIKE[op]
      ? Prisma.sql`${fold(column)} LIKE ${operand} ESCAPE '\\'`
      : Prisma.sql`${fold(column)} ${Prisma.raw(COMPARISONS[op])} ${operand}`;
  if (kind === 'texts') {
    // ne: no value equals it; the others: some value matches.
    const some = Prisma.sql`EXISTS (SELECT 1 FROM unnest(${sql}) AS v(value) WHERE ${condition(Prisma.sql`v.value`)})`;
    if (op !== 'ne') return some;
    return Prisma.sql`NOT EXISTS (SELECT 1 FROM unnest(${sql}) AS v(value) WHERE ${fold(Prisma.sql`v.value`)} = ${operand})`;
  }
  if (op === 'ne') return Prisma.sql`${fold(sql)} IS DISTINCT FROM ${operand}`;
  return Prisma.sql`coalesce(${condition(sql)}, false)`;
}
