import type { DMMF } from '@prisma/client/runtime/client';
import { SqlSession } from '../../src/database/database';

/**
 * One thing of the database — a table, a column, a primary key, an index,
 * an enum type — described alike whether read from schema.prisma or from a
 * migrated database, so that the two descriptions can be compared.
 */
export interface Fact {
  /** What it is, e.g. `column identity.surname`: the same on both sides. */
  subject: string;
  table?: string;
  column?: string;
  /** What must agree, e.g. `text NULL`. */
  value: string;
  /** A column's default in the database, e.g. `false`; not compared here. */
  default?: string;
  /** Where it is declared: the model or field, or the index's name. */
  origin?: string;
}

// PostgreSQL's name (format_type) of the column Prisma makes for each type,
// without and with a native type attribute (@db.*).
const SCALAR: Record<string, string> = {
  String: 'text',
  Boolean: 'boolean',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};
const NATIVE: Record<string, (precision: string) => string> = {
  Text: () => 'text',
  VarChar: (p) => `character varying${p}`,
  Char: (p) => `character${p}`,
  Uuid: () => 'uuid',
  SmallInt: () => 'smallint',
  Integer: () => 'integer',
  BigInt: () => 'bigint',
  Real: () => 'real',
  DoublePrecision: () => 'double precision',
  Decimal: (p) => `numeric${p}`,
  Timestamp: (p) => `timestamp${p} without time zone`,
  Timestamptz: (p) => `timestamp${p} with time zone`,
  Date: () => 'date',
  Json: () => 'json',
  JsonB: () => 'jsonb',
  ByteA: () => 'bytea',
  Inet: () => 'inet',
};

const quoted = (name: string) =>
  /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name}"`;
const list = (names: readonly string[]) => `(${names.join(', ')})`;

function columnType(field: DMMF.Field, enums: Map<string, string>): string {
  const [native, args] = field.nativeType ?? [];
  const precision = args?.length ? `(${args.join(',')})` : '';
  const base = native
    ? (NATIVE[native]?.(precision) ?? `@db.${native} (unknown to this check)`)
    : (SCALAR[field.type] ?? quoted(enums.get(field.type) ?? field.type));
  // Prisma has no optional lists; the migrations make every list NOT NULL
  // so that an empty list is never read as null.
  const nullable = !field.isRequired && !field.isList;
  return `${base}${field.isList ? '[]' : ''} ${nullable ? 'NULL' : 'NOT NULL'}`;
}

/** What schema.prisma says the database holds. */
export function schemaFacts(datamodel: DMMF.Datamodel): Fact[] {
  const enums = new Map(
    datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]),
  );
  const facts: Fact[] = datamodel.enums.map((e) => ({
    subject: `enum ${quoted(e.dbName ?? e.name)}`,
    value: e.values.map((v) => v.dbName ?? v.name).join(', '),
    origin: `enum ${e.name}`,
  }));
  const tables = new Map<
    string,
    { table: string; columns: Map<string, string> }
  >();
  for (const model of datamodel.models) {
    const table = model.dbName ?? model.name;
    const columns = new Map<string, string>();
    tables.set(model.name, { table, columns });
    facts.push({
      subject: `table ${table}`,
      table,
      value: '',
      origin: `model ${model.name}`,
    });
    for (const field of model.fields) {
      if (field.kind !== 'scalar' && field.kind !== 'enum') continue;
      const column = field.dbName ?? field.name;
      columns.set(field.name, column);
      facts.push({
        subject: `column ${table}.${column}`,
        table,
        column,
        value: columnType(field, enums),
        origin: `${model.name}.${field.name}`,
      });
    }
  }
  for (const index of datamodel.indexes) {
    const { table, columns } = tables.get(index.model)!;
    const keys = list(index.fields.map((f) => columns.get(f.name) ?? f.name));
    const origin = `model ${index.model}`;
    if (index.type === 'id')
      facts.push({
        subject: `primary key of ${table}`,
        table,
        value: keys,
        origin,
      });
    else
      facts.push({
        subject: `index on ${table}${keys}`,
        table,
        value: indexKind(index.type === 'unique', index.algorithm ?? 'btree'),
        origin,
      });
  }
  return facts;
}

const indexKind = (unique: boolean, method: string) =>
  `${unique ? 'unique ' : ''}${method.toLowerCase()}`;

/** What the database holds: its tables, columns, keys, indexes and enums. */
export async function databaseFacts(session: SqlSession): Promise<Fact[]> {
  const columns = await session.query<{
    table: string;
    column: string;
    type: string;
    notNull: boolean;
    default: string | null;
  }>(
    `SELECT c.relname::text AS table, a.attname::text AS column,
            format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull",
            pg_get_expr(d.adbin, d.adrelid) AS default
       FROM pg_class c
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
        AND c.relname <> '_prisma_migrations'
      ORDER BY c.relname, a.attnum`,
  );
  const indexes = await session.query<{
    table: string;
    name: string;
    primary: boolean;
    unique: boolean;
    method: string;
    columns: string[];
    predicate: string | null;
  }>(
    `SELECT t.relname::text AS table, i.relname::text AS name, x.indisprimary AS primary,
            x.indisunique AS unique, am.amname::text AS method,
            pg_get_expr(x.indpred, x.indrelid, true) AS predicate,
            ARRAY(SELECT coalesce(a.attname::text, pg_get_indexdef(x.indexrelid, k.n::int, true))
                    FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                    LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                   ORDER BY k.n) AS columns
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_am am ON am.oid = i.relam
      WHERE t.relnamespace = current_schema()::regnamespace
        AND t.relname <> '_prisma_migrations'
      ORDER BY t.relname, i.relname`,
  );
  const enums = await session.query<{ name: string; labels: string[] }>(
    `SELECT format_type(t.oid, NULL) AS name,
            array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
      WHERE t.typnamespace = current_schema()::regnamespace
      GROUP BY t.oid`,
  );
  return [
    ...enums.map((e) => ({
      subject: `enum ${e.name}`,
      value: e.labels.join(', '),
    })),
    ...[...new Set(columns.map((c) => c.table))].map((table) => ({
      subject: `table ${table}`,
      table,
      value: '',
    })),
    ...columns.map(({ table, column, type, notNull, default: given }) => ({
      subject: `column ${table}.${column}`,
      table,
      column,
      value: `${type} ${notNull ? 'NOT NULL' : 'NULL'}`,
      default: given ?? undefined,
    })),
    ...indexes.map(
      ({ table, name, primary, unique, method, columns: keys, predicate }) =>
        primary
          ? {
              subject: `primary key of ${table}`,
              table,
              value: list(keys),
              origin: name,
            }
          : {
              subject: `index on ${table}${list(keys)}`,
              table,
              // A partial index: schema.prisma cannot declare its predicate.
              value: `${indexKind(unique, method)}${predicate ? ` WHERE ${predicate}` : ''}`,
              origin: name,
            },
    ),
  ];
}

/**
 * Every way the two descriptions differ, one sentence each. A table on one
 * side only is one disagreement, not one per column.
 */
export function disagreements(schema: Fact[], database: Fact[]): string[] {
  const inSchema = new Map(schema.map((f) => [f.subject, f]));
  const inDatabase = new Map(database.map((f) => [f.subject, f]));
  const onBothSides = (table: string) =>
    inSchema.has(`table ${table}`) && inDatabase.has(`table ${table}`);
  const reported = (f: Fact) =>
    !f.table || f.subject === `table ${f.table}` || onBothSides(f.table);
  const name = (f: Fact) =>
    f.origin ? `${f.subject} (${f.origin})` : f.subject;
  const as = (f: Fact) => (f.value ? ` as ${f.value}` : '');
  const found: string[] = [];
  for (const fact of schema.filter(reported)) {
    const made = inDatabase.get(fact.subject);
    if (!made)
      found.push(
        `${name(fact)}: in schema.prisma${as(fact)}, but no migration makes it`,
      );
    else if (made.value !== fact.value)
      found.push(
        `${name(fact)}: schema.prisma says ${fact.value}, the migrations make ${made.value}`,
      );
  }
  for (const fact of database.filter(reported))
    if (!inSchema.has(fact.subject))
      found.push(
        `${name(fact)}: made by the migrations${as(fact)}, but not in schema.prisma`,
      );
  return found;
}
