import { Pool, types } from 'pg';
import type { StatementNames } from './statement-names';
import { parseTextArray } from './text-array';

/**
 * Runs SQL text with its values on a pool or a driver adapter, its rows
 * valued as `$queryRaw` would: what Database's runners stand on.
 */
export interface SqlExecutor {
  rows<T>(text: string, values: unknown[]): Promise<T[]>;
}

type Parse = (text: string) => unknown;
type TypeId = Parameters<typeof types.getTypeParser>[0];

const TEXT_ARRAY_OID = 1009;
const INT8_ARRAY_OID = 1016;
const toBigInt: Parse = (text) => BigInt(text);
// A timestamp without a time zone is UTC, as Prisma reads it.
const utc: Parse = (text) => new Date(`${text.replace(' ', 'T')}Z`);

/**
 * int8 and int8[] as bigints, timestamp as UTC, text[] as pg reads it but
 * without its cost per character (text-array.ts); every other type as `pg`
 * parses it.
 */
const PARSERS: Record<number, Parse> = {
  [types.builtins.INT8]: toBigInt,
  [INT8_ARRAY_OID]: (text) =>
    parseTextArray(text).map((v) => (v === null ? null : BigInt(v))),
  [TEXT_ARRAY_OID]: parseTextArray,
  [types.builtins.TIMESTAMP]: utc,
};

const STATEMENT_TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    (format !== 'binary' && PARSERS[oid]) ||
    types.getTypeParser(oid as TypeId, format),
};

/** A parameter as PostgreSQL reads it: a Date as an instant in UTC. */
const parameter = (value: unknown): unknown =>
  value instanceof Date ? value.toISOString() : value;

/**
 * The statements run on the connection pool itself, as `pg` queries: the
 * same pool, statement names and values as through Prisma's driver adapter,
 * without the adapter's per-query work (its debug record of every query,
 * its column typing and the second pass that turns its rows into objects):
 * about 35 µs less CPU per query (docs/benchmark.md). `names`, when given,
 * prepares each statement (the generator the adapter itself is given, so
 * both name a text alike).
 */
export function poolStatements(
  pool: Pool,
  names?: StatementNames,
): SqlExecutor {
  return {
    async rows<T>(text: string, values: unknown[]): Promise<T[]> {
      const result = await pool.query({
        name: names?.(text, values.length) || undefined,
        text,
        values: values.map(parameter),
        types: STATEMENT_TYPES,
      });
      return result.rows as T[];
    },
  };
}
