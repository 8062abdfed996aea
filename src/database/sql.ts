import {
  Compilable,
  CompiledQuery,
  Expression,
  ExpressionBuilder,
  DummyDriver,
  InferResult,
  JoinBuilder,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  RawBuilder,
  ReferenceExpression,
  sql,
} from 'kysely';
import type { Prisma } from '../generated/prisma/client';
import type { DB } from '../generated/kysely/tables';

/**
 * The statement builder: Kysely over the tables' row types, which
 * prisma-kysely generates from prisma/schema.prisma at build time, so that a
 * query's result type is the compiler's conclusion from the schema, not the
 * caller's claim. It only builds SQL: Database's runners run it
 * (src/database/database.ts).
 */
export const builder = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** A statement's parameter, named, in place of its value when it is built. */
class Parameter {
  constructor(readonly name: string) {}
}

/**
 * A parameter the statement reads as it runs rather than from its caller:
 * a value of the moment, the same for every statement that places it (a
 * write's trace context, say). Its name only labels it; a caller's value
 * of that name, when given, is taken instead.
 */
class Ambient extends Parameter {
  constructor(
    name: string,
    readonly read: () => unknown,
  ) {
    super(name);
  }
}

/** A parameter named `name` whose value `read` gives each time a statement runs. */
export const ambient = (name: string, read: () => unknown): unknown =>
  new Ambient(name, read);

/** The values of a query compiled for one run: its ambient parameters read now. */
export function valuesOf(parameters: readonly unknown[]): unknown[] {
  return parameters.map((value) =>
    value instanceof Ambient ? value.read() : value,
  );
}

/**
 * A statement built and compiled once, run many times: the SQL text is
 * fixed (so the database prepares it once per connection), only its
 * parameters' values change. `Row` is what one result row holds.
 */
export interface Statement<Params, Row> {
  readonly text: string;
  values(params: Params): unknown[];
  /** Never set: carries the row type to the caller. */
  readonly row?: Row;
}

/** One result row of a statement. */
export type StatementRow<S> =
  S extends Statement<never, infer Row> ? Row : never;

/** What the runners run: a query of the builder, or SQL written with Kysely's `sql` tag. */
export type Query = Compilable | RawBuilder<unknown>;

/** One result row of a built query. */
export type RowOf<Q extends Query> =
  Q extends RawBuilder<infer R>
    ? R
    : Q extends Compilable
      ? InferResult<Q> extends (infer R)[]
        ? R
        : never
      : never;

/** A query's SQL text and parameters, for the PostgreSQL the service runs on. */
export function compile(query: Query): CompiledQuery {
  return 'isRawBuilder' in query ? query.compile(builder) : query.compile();
}

/**
 * Compiles the query `build` returns from stand-ins for its parameters:
 * each `params.name` it uses becomes a numbered placeholder, bound to the
 * value of that name each time the statement runs. A value written into the
 * query itself stays a constant parameter. A stand-in is only to be placed
 * in the query: computed with (`p.limit + 1`), it is no value.
 */
export function statement<Params extends object, Q extends Query>(
  build: (params: Params) => Q,
): Statement<Params, RowOf<Q>> {
  const stand = new Proxy(
    {},
    { get: (_, name) => new Parameter(String(name)) },
  ) as Params;
  const { sql, parameters } = compile(build(stand));
  const bind = parameters.map((value) =>
    value instanceof Ambient
      ? (params: Params) =>
          value.name in params
            ? params[value.name as keyof Params]
            : value.read()
      : value instanceof Parameter
        ? (params: Params) => params[value.name as keyof Params]
        : () => value,
  );
  const made: Statement<Params, RowOf<Q>> = {
    text: sql,
    values: (params) => bind.map((value) => value(params)),
  };
  recorded?.push({ statement: made, stack: callStack() });
  return made;
}

/** A statement built while statements were recorded, with the calls that built it. */
export interface RecordedStatement {
  readonly statement: Statement<never, unknown>;
  /** The call stack of its building, `statement` itself first. */
  readonly stack: string;
}

let recorded: RecordedStatement[] | undefined;

/**
 * Keeps every statement built from now on, in order, with the call stack
 * that built it: how the committed SQL (src/database/queries/) finds each
 * statement and its name (statement-origins.ts). The service never calls
 * it, so it keeps none and reads no stack.
 */
export function recordStatements(): readonly RecordedStatement[] {
  return (recorded ??= []);
}

/** The stack here, deep enough for a statement built through a few helpers. */
function callStack(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 32;
  try {
    return new Error().stack ?? '';
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * EXISTS of a subquery: Kysely types it as 0 or 1 or a boolean for all its
 * dialects; PostgreSQL answers a boolean.
 */
export function exists<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  subquery: Expression<unknown>,
) {
  return eb.exists(subquery).$castTo<boolean>();
}

/** The tables (or aliases) of `TB` whose rows belong to a tenant. */
type TenantTable<DB, TB extends keyof DB> = {
  [T in TB]: DB[T] extends { tenant_id: unknown } ? T : never;
}[TB] &
  string;

/**
 * The join condition of two rows of one tenant by `key`, the tenant first
 * as every key begins with it: `a.tenant_id = b.tenant_id AND a.key = b.key`.
 */
export function onTenantKey<
  DB,
  TB extends keyof DB,
  A extends TenantTable<DB, TB>,
  B extends TenantTable<DB, TB>,
  K extends keyof DB[A] & keyof DB[B] & string,
>(join: JoinBuilder<DB, TB>, a: A, b: B, key: K): JoinBuilder<DB, TB> {
  // The type parameters hold that both columns exist on both sides.
  const column = (table: string, name: string) =>
    `${table}.${name}` as ReferenceExpression<DB, TB>;
  return join
    .onRef(column(a, 'tenant_id'), '=', column(b, 'tenant_id'))
    .onRef(column(a, key), '=', column(b, key));
}

/**
 * A condition written as a Prisma fragment (the SCIM filter's translation,
 * src/scim/scim-filter.ts) inside a built query, its values still parameters.
 */
export function condition(fragment: Prisma.Sql): RawBuilder<boolean> {
  // In parentheses: the builder puts a raw condition beside others as it is.
  const strings = [...fragment.strings];
  strings[0] = `(${strings[0]}`;
  strings[strings.length - 1] += ')';
  return sql<boolean>(
    Object.assign(strings, { raw: strings }),
    ...fragment.values,
  );
}

/**
 * `value` as a LIKE pattern (with `ESCAPE '\'`) that matches it literally:
 * `%`, `_` and the escape character itself escaped.
 */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, '\\$&');
