import {
  ArgType,
  ColumnType,
  ColumnTypeEnum,
  SqlQuery,
  SqlQueryable,
  SqlResultSet,
} from '@prisma/driver-adapter-utils';
import type { SqlExecutor } from './pool-statements';

/**
 * A statement's text (numbered placeholders) and its parameters' values
 * as the driver adapter takes them: for each value, the type the adapter needs to
 * send it as Prisma's own raw queries do (a Date as UTC, an array as a list).
 */
export function statementQuery(text: string, values: unknown[]): SqlQuery {
  return { sql: text, args: values, argTypes: values.map(argType) };
}

function argType(value: unknown): ArgType {
  if (Array.isArray(value))
    return { scalarType: scalarType(value[0]), arity: 'list' };
  return { scalarType: scalarType(value), arity: 'scalar' };
}

function scalarType(value: unknown): ArgType['scalarType'] {
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'bigint':
      return 'bigint';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'boolean':
      return 'boolean';
    case 'object':
      if (value instanceof Date) return 'datetime';
      if (ArrayBuffer.isView(value)) return 'bytes';
      return value === null ? 'unknown' : 'json';
    default:
      return 'unknown';
  }
}

type Decode = (value: unknown) => unknown;

const list =
  (decode: Decode): Decode =>
  (values) =>
    (values as unknown[]).map((v) => (v === null ? null : decode(v)));

const toBigInt: Decode = (v) => BigInt(v as string | number);
const toDate: Decode = (v) => new Date(v as string);
const toJson: Decode = (v) => (typeof v === 'string' ? JSON.parse(v) : v);
const unsupported =
  (type: string): Decode =>
  () => {
    throw new TypeError(`A ${type} column is not read through adapterRows`);
  };

/**
 * How the adapter's text of a column becomes the value `$queryRaw` returns
 * for it: int8 a bigint, timestamptz a Date, json parsed. Columns of the
 * types left out (text, int4, boolean and their arrays) arrive as they are;
 * the ones this service never reads raw are refused rather than guessed.
 */
const DECODE: Partial<Record<ColumnType, Decode>> = {
  [ColumnTypeEnum.Int64]: toBigInt,
  [ColumnTypeEnum.Int64Array]: list(toBigInt),
  [ColumnTypeEnum.DateTime]: toDate,
  [ColumnTypeEnum.DateTimeArray]: list(toDate),
  [ColumnTypeEnum.Json]: toJson,
  [ColumnTypeEnum.JsonArray]: list(toJson),
  [ColumnTypeEnum.Numeric]: unsupported('numeric'),
  [ColumnTypeEnum.NumericArray]: unsupported('numeric[]'),
  [ColumnTypeEnum.Date]: unsupported('date'),
  [ColumnTypeEnum.DateArray]: unsupported('date[]'),
  [ColumnTypeEnum.Time]: unsupported('time'),
  [ColumnTypeEnum.TimeArray]: unsupported('time[]'),
  [ColumnTypeEnum.Bytes]: unsupported('bytea'),
  [ColumnTypeEnum.BytesArray]: unsupported('bytea[]'),
};

/** The adapter's result as objects keyed by column name, valued as `$queryRaw` would. */
export function adapterRows<T>(result: SqlResultSet): T[] {
  const { columnNames, rows } = result;
  const decoders = result.columnTypes.map((type) => DECODE[type]);
  return rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) {
      const value = row[i];
      const decode = decoders[i];
      record[columnNames[i]] =
        decode === undefined || value === null ? value : decode(value);
    }
    return record as T;
  });
}

/** Statements run on a driver adapter (an in-process PGlite's). */
export function adapterStatements(adapter: SqlQueryable): SqlExecutor {
  return {
    rows: async <T>(text: string, values: unknown[]) =>
      adapterRows<T>(await adapter.queryRaw(statementQuery(text, values))),
  };
}
