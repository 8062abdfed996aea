import type { Prisma } from '../generated/prisma/client';

/**
 * How an attribute is compared: its SQL, its kind, and whether case matters.
 * A `texts` attribute has many values: an array column, or, with `some`,
 * rows elsewhere (`some(condition)` is true when one value `v.value`
 * satisfies the condition).
 */
export interface Filterable {
  sql: Prisma.Sql;
  kind: 'text' | 'texts' | 'flag' | 'time';
  caseExact?: boolean;
  some?: (condition: Prisma.Sql) => Prisma.Sql;
}

/** What a filter may name, by lower-case attribute path. */
export type FilterAttributes = Record<string, Filterable>;
