import { Filter, parse } from 'scim2-parse-filter';
import { InvalidRequest } from '../common/errors';
import { escapeLike } from '../database/sql';
import { Prisma } from '../generated/prisma/client';
import { USER_SCHEMA } from './scim-schemas';
import type { Filterable, FilterAttributes } from './scim-filter-attributes';

export type { FilterAttributes };

/** The limits of a filter's size (docs/scim.md): each is answered 400 invalidFilter. */
export const FILTER_LIMITS = { length: 2048, terms: 20, depth: 8 };

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
  if (filter.length > FILTER_LIMITS.length)
    throw invalidFilter(
      `it is longer than ${FILTER_LIMITS.length} characters.`,
    );
  let tree: Filter;
  try {
    tree = parse(filter);
  } catch {
    throw invalidFilter(`cannot parse "${quote(filter)}".`);
  }
  checkSize(tree);
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
    throw invalidFilter(`cannot parse "${quote(filter)}".`);
  }
}

/** A filter as an error detail quotes it: never a whole hostile input. */
const quote = (filter: string) =>
  filter.length > 100 ? `${filter.slice(0, 100)}…` : filter;

/**
 * Refuses a filter with more comparisons, or deeper nesting, than
 * FILTER_LIMITS allows: each comparison is a condition PostgreSQL evaluates
 * on every row of the tenant.
 */
function checkSize(tree: Filter) {
  let terms = 0;
  const stack: [Filter, number][] = [[tree, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > FILTER_LIMITS.depth)
      throw invalidFilter(
        `it nests deeper than ${FILTER_LIMITS.depth} levels.`,
      );
    if (node.op === 'and' || node.op === 'or')
      for (const f of node.filters) stack.push([f, depth + 1]);
    else if (node.op === 'not') stack.push([node.filter, depth + 1]);
    else if (node.op === '[]') stack.push([node.valFilter, depth + 1]);
    else if (++terms > FILTER_LIMITS.terms)
      throw invalidFilter(
        `it has more than ${FILTER_LIMITS.terms} comparisons.`,
      );
  }
}

/** Some value of a many-valued attribute satisfies `condition` (on `v.value`). */
const some = ({ sql, some }: Filterable, condition: Prisma.Sql) =>
  some
    ? some(condition)
    : Prisma.sql`EXISTS (SELECT 1 FROM unnest(${sql}) AS v(value) WHERE ${condition})`;

function present(attribute: Filterable): Prisma.Sql {
  const { sql, kind } = attribute;
  if (kind === 'texts')
    return attribute.some
      ? some(attribute, Prisma.sql`TRUE`)
      : Prisma.sql`cardinality(${sql}) > 0`;
  if (kind === 'text') return Prisma.sql`(${sql} IS NOT NULL AND ${sql} <> '')`;
  return Prisma.sql`(${sql}) IS NOT NULL`;
}

function compare(
  attribute: Filterable,
  op: string,
  value: unknown,
  path: string,
): Prisma.Sql {
  const { sql, kind, caseExact } = attribute;
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
  // Case-insensitive means ascii_lower() (migration
  // 20261208000000_canonical_match): A-Z as a-z and nothing else, so no
  // other letter finds an ASCII name.
  const fold = (s: Prisma.Sql) =>
    caseExact ? s : Prisma.sql`ascii_lower(${s})`;
  const operand = fold(Prisma.sql`${LIKE[op] ? LIKE[op](value) : value}`);
  const condition = (column: Prisma.Sql) =>
    LIKE[op]
      ? Prisma.sql`${fold(column)} LIKE ${operand} ESCAPE '\\'`
      : Prisma.sql`${fold(column)} ${Prisma.raw(COMPARISONS[op])} ${operand}`;
  if (kind === 'texts') {
    // ne: no value equals it; the others: some value matches.
    const value = Prisma.sql`v.value`;
    if (op !== 'ne') return some(attribute, condition(value));
    return Prisma.sql`NOT ${some(attribute, Prisma.sql`${fold(value)} = ${operand}`)}`;
  }
  if (op === 'ne') return Prisma.sql`${fold(sql)} IS DISTINCT FROM ${operand}`;
  // Two-valued (an absent value compares false, so `not` finds it), and in
  // a form the indexes serve: `ascii_lower(user_name) = ascii_lower($1)` is the unique
  // index's own expression, which a coalesce() around it would hide.
  return Prisma.sql`(${sql} IS NOT NULL AND ${condition(sql)})`;
}
