import type { PGlite } from '@electric-sql/pglite';
import { Logger } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Client, Pool, PoolConfig } from 'pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { AppConfig } from '../config/app-config';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { adapterStatements } from './adapter-query';
import { watchQueries } from './query-watchdog';
import { poolStatements, SqlExecutor } from './pool-statements';
import { sql } from 'kysely';
import {
  builder,
  compile,
  Query,
  RowOf,
  Statement,
  statement,
  valuesOf,
} from './sql';
import {
  ConnectionFailed,
  errorCodes,
  isDatabaseUnavailable,
  isQueryTimeout,
} from './database-errors';
import { ReadContext, readContext } from './replicas/read-context';
import { parseLsn, Replica, ReplicaSet } from './replicas/replica-set';
import { ChosenPool } from './chosen-pool';
import { CursorSlots } from './cursor-slots';
import { pulled } from './pulled';
import { parseConnectionString } from './connection-string';
import { ServerChoice } from './server-choice';
import type { DatabaseRole } from './database-role';
import type { OnClose } from './embedded-database';
import { StatementNames, statementNames } from './statement-names';

/**
 * Runs SQL (src/database/sql.ts) and answers its rows, typed by the schema:
 * `Database.read`, `primary`, `aside`, and a transaction's own.
 */
export interface StatementRunner {
  /**
   * A statement, compiled once when its module loads (its SQL is committed
   * in src/database/queries/), with its parameters' values.
   */
  rows<Params, Row>(
    statement: Statement<Params, Row>,
    params: Params,
  ): Promise<Row[]>;
  /**
   * A query built for this call alone, because its shape depends on the
   * call (a list of values, a filter, a set of columns), compiled as it runs.
   */
  query<Q extends Query>(query: Q): Promise<RowOf<Q>[]>;
}

/**
 * Prisma's model API without its raw SQL and its transactions: reads and
 * writes of one model's rows chosen by that model's own fields, with no SQL
 * of their own. Everything else is a statement.
 */
export type Models = Omit<Prisma.TransactionClient, `$${string}`>;

/**
 * A transaction on the primary: its statements, and the model API for the
 * plain writes (and reads) that belong to it. Committed when the work
 * returns, rolled back when it throws.
 */
export interface Transaction extends StatementRunner {
  readonly models: Models;
}

/** A single connection, for work that needs one (migrations, locks). */
export interface SqlSession {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

/** A transaction other than the service's default one. */
export interface TransactionOptions {
  /**
   * How long it may wait for a connection, and then run, in milliseconds
   * (by default DATABASE_CONNECT_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS).
   */
  timeoutMs?: number;
  /** READ COMMITTED by default; a REPEATABLE READ one reads one snapshot. */
  isolationLevel?: 'RepeatableRead';
}

/** Connections of the pool: open, idle, and requests waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** The connections themselves: their description, their counts, one of them, closing. */
interface Connections {
  readonly description: string;
  poolStats(): PoolStats;
  withSession<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type { DatabaseRole } from './database-role';

/**
 * The database the service runs on: PostgreSQL when a connection string is
 * configured, otherwise an embedded PGlite, migrated by the same SQL files.
 * Repositories reach it two ways (docs/architecture.md, "SQL runs one way"):
 * statements through the runners (`read`, `primary`, `aside`, a
 * transaction's), and Prisma's model API (`models`, a transaction's) for the
 * plain reads and writes of one model.
 */
export class Database {
  /** The streaming replicas GET requests may read from, when configured. */
  private replicaSet?: ReplicaSet;
  /** The primary itself, for migrations, when the pool goes through a pooler. */
  private directUrl?: string;
  private directTimeoutMs = 5_000;
  /** Which server of DATABASE_URL the pool connects to, on PostgreSQL. */
  private primaryChoice?: ServerChoice;

  private constructor(
    /**
     * Prisma's whole client: for src/database/ and for tests that inspect
     * or seed the data. The rest of src/ uses `models` and the runners
     * (held by src/architecture.spec.ts).
     */
    readonly prisma: PrismaClient,
    private readonly connections: Connections,
    private readonly statements: SqlExecutor,
    /** The pool's connections a cursor may hold (cursor); none on one connection. */
    private readonly cursorSlots?: CursorSlots,
  ) {}

  /**
   * The client on a driver adapter factory, and where the statements run:
   * `statements`, or else a queryable of the same factory's own.
   */
  private static async open(
    factory: SqlDriverAdapterFactory,
    connections: Connections,
    config?: AppConfig,
    statements?: SqlExecutor,
    cursorSlots?: CursorSlots,
  ): Promise<Database> {
    return new Database(
      new PrismaClient({
        adapter: factory,
        transactionOptions: config && transactionOptions(config),
      }),
      connections,
      statements ?? adapterStatements(await factory.connect()),
      cursorSlots,
    );
  }

  /**
   * The service connects through DATABASE_URL (usually a pooler), with its
   * replicas; a command (imports, merges, the change log's follower)
   * connects to the primary itself when DATABASE_DIRECT_URL names it.
   */
  static async connect(
    config: AppConfig,
    role: DatabaseRole = 'service',
  ): Promise<Database> {
    if (config.databaseUrl) {
      const url =
        role === 'command'
          ? (config.databaseDirectUrl ?? config.databaseUrl)
          : config.databaseUrl;
      const primary = new ServerChoice(
        parseConnectionString(url),
        config.databaseConnectTimeoutMs,
      );
      const database = await Database.postgres(
        config,
        { keepAlive: true },
        `PostgreSQL at ${primary.target.description}`,
        { choice: primary },
      );
      database.primaryChoice = primary;
      if (role === 'service') {
        database.directUrl = config.databaseDirectUrl;
        database.directTimeoutMs = config.databaseConnectTimeoutMs;
        if (config.databaseReplicaUrls.length)
          database.replicaSet = await replicaSet(config, database);
      }
      return database;
    }
    const embedded = embeddedModules();
    if (config.dataDir.startsWith('memory://'))
      return Database.inProcess(
        await embedded.PGlite.create(config.dataDir),
        'embedded PGlite in memory',
        undefined,
        config,
      );
    const opened = await embedded.openEmbedded(config, role);
    // Connections to an embedded database share its one session: names
    // prepared by one would clash with another's.
    return opened.kind === 'socket'
      ? Database.postgres(config, opened.connection, opened.description, {
          prepared: false,
          onClose: opened.onClose,
        })
      : Database.inProcess(
          opened.pglite,
          opened.description,
          opened.onClose,
          config,
        );
  }

  /**
   * PostgreSQL, or an embedded database served on a socket, through a pool.
   * Statements are prepared (named) when `prepared`: PostgreSQL then plans
   * each once per connection.
   */
  static postgres(
    config: AppConfig,
    connection: PoolConfig,
    description: string,
    {
      prepared = config.databasePreparedStatements,
      onClose = () => undefined,
      choice,
    }: {
      prepared?: boolean;
      onClose?: OnClose;
      /** The server of a connection string's the pool connects to. */
      choice?: ServerChoice;
    } = {},
  ): Promise<Database> {
    const pool = boundedPool(
      config,
      {
        max: config.databasePoolSize,
        connectionTimeoutMillis: config.databaseConnectTimeoutMs,
        ...connection,
      },
      choice,
    );
    const names = prepared ? statementNames() : undefined;
    const holders = Math.floor((connection.max ?? config.databasePoolSize) / 2);
    return Database.open(
      new PrismaPg(pool, adapterOptions(names)),
      postgresDriver(pool, description, onClose),
      config,
      poolStatements(pool, names),
      holders > 0
        ? new CursorSlots(
            holders,
            config.databaseConnectTimeoutMs,
            config.databaseQueryTimeoutMs,
          )
        : undefined,
    );
  }

  /** An embedded database opened in this process. */
  static inProcess(
    pglite: PGlite,
    description: string,
    onClose: OnClose = () => undefined,
    config?: AppConfig,
  ): Promise<Database> {
    return Database.open(
      new (embeddedModules().PrismaPGlite)(pglite),
      pgliteDriver(pglite, description, onClose),
      config,
    );
  }

  /**
   * Statements of the request path's reads (src/database/sql.ts): from the
   * replica read routing chose for the request, when it chose one, or else
   * the primary. Each returns its rows valued as `$queryRaw` would, typed by
   * the schema. On PostgreSQL they run on the client's own pool as `pg`
   * queries, with the statement names the client's driver adapter uses
   * (pool-statements.ts); on an in-process PGlite, on that driver adapter.
   * The hot path's statements take this way: it skips the client's query
   * handling (0.14 ms of the 0.58 ms of CPU a GET of the current identity
   * cost, 0.22 ms of GET roles' 0.67 ms) and the adapter's per-query work
   * (about 35 µs a query).
   */
  readonly read: StatementRunner = {
    rows: (statement, params) =>
      this.run(statement.text, statement.values(params), true),
    query: (query) => {
      const { sql, parameters } = compile(query);
      return this.run(sql, valuesOf(parameters), true);
    },
  };

  /**
   * Statements that write, and reads that must see the latest writes: on
   * the primary, and the rest of the request's reads go there too (a
   * request that writes reads its own write).
   */
  readonly primary: StatementRunner = {
    rows: (statement, params) => {
      this.readFromPrimary();
      return this.onPrimary(
        this.run(statement.text, statement.values(params), false),
      );
    },
    query: (query) => {
      this.readFromPrimary();
      const { sql, parameters } = compile(query);
      return this.onPrimary(this.run(sql, valuesOf(parameters), false));
    },
  };

  /**
   * A write that no read waits for (a token's last use, written at most once
   * a minute): on the primary, leaving the request's reads where they are,
   * and recording no write position.
   */
  readonly aside: StatementRunner = {
    rows: (statement, params) =>
      this.statements.rows(statement.text, statement.values(params)),
    query: (query) => {
      const { sql, parameters } = compile(query);
      return this.statements.rows(sql, valuesOf(parameters));
    },
  };

  /**
   * A statement on the request's replica, or on the primary; a read
   * (`again`) that met a broken connection there is run once more, on a
   * fresh one (the broken one is dropped, and after a failover the pool has
   * found the new primary).
   */
  private run<T>(
    text: string,
    values: unknown[],
    again: boolean,
  ): Promise<T[]> {
    const context = this.replicaSet && readContext.getStore();
    if (context?.replica) return this.onReplica(context, text, values);
    const rows = this.statements.rows<T>(text, values);
    return again && this.primaryChoice
      ? rows.catch((error: unknown) => {
          if (!brokenConnection(error)) throw error;
          return this.statements.rows<T>(text, values);
        })
      : rows;
  }

  /**
   * Work on the primary, whose server is given up when it answers
   * "read-only" (SQLSTATE 25006: demoted under an open connection, or
   * fenced): the next connection chooses again.
   */
  private onPrimary<T>(work: Promise<T>): Promise<T> {
    if (!this.primaryChoice) return work;
    return work.catch((error: unknown) => {
      if (errorCodes(error).includes(READ_ONLY))
        this.primaryChoice?.forgetCurrent();
      throw error;
    });
  }

  /** A read on the request's replica; the primary's when the replica cannot answer it now. */
  private async onReplica<T>(
    context: ReadContext,
    text: string,
    values: unknown[],
  ): Promise<T[]> {
    const replica = context.replica!;
    try {
      return await replica.statements.rows<T>(text, values);
    } catch (error) {
      if (isDatabaseUnavailable(error))
        this.replicaSet!.failed(replica, error as Error);
      else if (!errorCodes(error).includes(RECOVERY_CONFLICT)) throw error;
      context.replica = undefined;
    }
    return this.statements.rows<T>(text, values);
  }

  /**
   * The rows of a cursor, in batches, for an answer too large to hold
   * whole: `declare` declares the cursor, `fetch` reads its next `size`
   * rows. They are read in one REPEATABLE READ transaction on the primary,
   * which stays open while the batches are consumed, at the consumer's pace,
   * and ends when the rows do or the iteration is left; consumed slower
   * than DATABASE_QUERY_TIMEOUT_MS in all, it ends there, and the iteration
   * throws (pulled's ConsumedTooSlowly).
   * At most half the pool's connections hold a cursor at once, the rest
   * stay free for every other statement (CursorSlots). On a single
   * connection (an embedded database's one session) the rows are read whole
   * inside the transaction and handed out after it.
   */
  cursor<Params, Row>(
    declare: Statement<Params, unknown>,
    params: Params,
    fetch: { statement: Statement<object, Row>; size: number },
  ): AsyncGenerator<Row[]> {
    // A read: unlike `transaction`, it leaves the request's other reads
    // where they are and does not count as the request's write.
    const read = (emit: (rows: Row[]) => Promise<boolean>) =>
      this.onPrimary(
        this.prisma.$transaction(
          async (client) => {
            const tx = transactionOf(client);
            await tx.rows(declare, params);
            for (;;) {
              const rows = await tx.rows(fetch.statement, {});
              if (rows.length > 0 && !(await emit(rows))) return;
              if (rows.length < fetch.size) return;
            }
          },
          { isolationLevel: 'RepeatableRead' },
        ),
      );
    const slots = this.cursorSlots;
    if (!slots)
      return pulled(async (emit) => {
        const batches: Row[][] = [];
        await read(async (rows) => batches.push(rows) > 0);
        for (const rows of batches) if (!(await emit(rows))) return;
      });
    return pulled(async (emit) => {
      await slots.take();
      try {
        await read(emit);
      } finally {
        slots.give();
      }
    }, slots.holdMs);
  }

  /**
   * How long a cursor's rows may take to be consumed, in milliseconds, when
   * a cursor holds a connection the pool needs back (cursor); none otherwise.
   */
  get cursorHoldMs(): number | undefined {
    return this.cursorSlots?.holdMs;
  }

  /**
   * Runs `work` in a transaction on the primary (Prisma's interactive
   * transaction, on one connection of the pool); the rest of the request's
   * reads go to the primary too.
   */
  transaction<T>(
    work: (tx: Transaction) => Promise<T>,
    options: TransactionOptions = {},
  ): Promise<T> {
    this.readFromPrimary();
    const { timeoutMs, isolationLevel } = options;
    return this.onPrimary(
      this.prisma.$transaction(
        (client) => work(transactionOf(client)),
        timeoutMs === undefined
          ? { isolationLevel }
          : { isolationLevel, timeout: timeoutMs, maxWait: timeoutMs },
      ),
    );
  }

  /**
   * Prisma's model API on the primary, outside a transaction: a single
   * read or write of one model's rows. A write recorded with others, or one
   * a read of the same request must see, goes through `transaction`.
   */
  get models(): Models {
    return this.prisma;
  }

  /** The replicas, when configured. */
  get replicas(): ReplicaSet | undefined {
    return this.replicaSet;
  }

  /**
   * Runs a GET's `work` with its reads on `replica` (falling back to the
   * primary), or on the primary when there is none, noting whether it writes.
   */
  readFrom<T>(replica: Replica | undefined, work: () => T): T {
    return readContext.run({ replica }, work);
  }

  /** Whether this GET has written, through `primary` or `transaction`. */
  get requestWrote(): boolean {
    return readContext.getStore()?.wrote === true;
  }

  /**
   * Sends the rest of this request's reads to the primary: a request that
   * writes must read its own write.
   */
  private readFromPrimary(): void {
    const context = readContext.getStore();
    if (context) {
      context.replica = undefined;
      context.wrote = true;
    }
  }

  /**
   * On PostgreSQL, how often the pool has moved to another server of
   * DATABASE_URL since the first (a failover, a switchover), read when called.
   */
  get primaryFigures(): (() => { changes: number }) | undefined {
    const choice = this.primaryChoice;
    return choice ? () => ({ changes: choice.changes }) : undefined;
  }

  /** The primary's WAL position after everything committed so far. */
  async writePosition(): Promise<bigint> {
    const [{ lsn }] = await this.primary.rows(WRITE_POSITION, {});
    return parseLsn(lsn);
  }

  /** Where the data lives, without credentials, for logs. */
  get description(): string {
    return this.connections.description;
  }

  /**
   * Runs `work` on one connection: the pool's, or with `direct` a connection
   * of its own to the primary itself when DATABASE_DIRECT_URL names it.
   */
  async withSession<T>(
    work: (session: SqlSession) => Promise<T>,
    { direct = false }: { direct?: boolean } = {},
  ): Promise<T> {
    if (!direct || !this.directUrl) return this.connections.withSession(work);
    const url = this.directUrl;
    const client = await connectOnce(url, this.directTimeoutMs).catch(
      (error: unknown) => {
        throw new ConnectionFailed('DATABASE_DIRECT_URL', url, error);
      },
    );
    try {
      return await work(clientSession(client));
    } finally {
      await client.end();
    }
  }

  poolStats(): PoolStats {
    return this.connections.poolStats();
  }

  async close(): Promise<void> {
    await this.replicaSet?.close();
    await this.prisma.$disconnect();
    await this.connections.close();
  }
}

/**
 * A Prisma transaction as a runner: its statements run on the transaction's
 * connection through the driver adapter (with the same statement names and
 * values as the pool's), as `$queryRawUnsafe` with the statement's own text.
 */
function transactionOf(client: Prisma.TransactionClient): Transaction {
  return {
    models: client,
    rows: (statement, params) =>
      client.$queryRawUnsafe(statement.text, ...statement.values(params)),
    query: (query) => {
      const { sql, parameters } = compile(query);
      return client.$queryRawUnsafe(sql, ...valuesOf(parameters));
    },
  };
}

/** The driver adapter's options: its statements named by `names`, when given. */
function adapterOptions(
  names?: StatementNames,
): ConstructorParameters<typeof PrismaPg>[1] {
  return names
    ? { statementNameGenerator: ({ sql, args }) => names(sql, args.length) }
    : {};
}

/**
 * A pool whose every statement PostgreSQL itself stops after
 * DATABASE_QUERY_TIMEOUT_MS (`statement_timeout`, set on each new
 * connection): a query whose answer nobody waits for does not go on running.
 * A SET rather than a startup parameter, which PgBouncer refuses; behind
 * PgBouncer in transaction mode a SET lands on one server connection, so
 * there the bound belongs to the role or to PgBouncer's `connect_query`
 * (docs/operations.md). The client waits a second longer, in case the
 * server cannot answer at all, and then closes the connection
 * (query-watchdog.ts).
 */
function boundedPool(
  config: AppConfig,
  options: PoolConfig,
  choice?: ServerChoice,
): Pool {
  // Run before the connection is first handed out (pg-pool's onConnect).
  const onConnect = (client: { query(sql: string): Promise<unknown> }) =>
    client.query(`SET statement_timeout = ${config.databaseQueryTimeoutMs}`);
  const bounded = { ...options, onConnect } as PoolConfig;
  const pool = choice ? new ChosenPool(choice, bounded) : new Pool(bounded);
  watchQueries(pool, config.databaseQueryTimeoutMs + 1000);
  // An idle connection the server closed (a restart, a replica stopped, a
  // failover): the pool drops it and opens another when one is needed. The
  // pool reports it as an event, which would end the process unheard.
  pool.on('error', (error) =>
    POOL_LOG.warn(`An idle database connection closed: ${error.message}`),
  );
  return pool;
}

const POOL_LOG = new Logger('Database');

/** SQLSTATE of a write on a server that is read-only (a standby, or one demoted). */
const READ_ONLY = '25006';

/**
 * A connection that broke under a read, or a server that stopped being the
 * one asked for: worth one more try on a fresh connection. Not a query that
 * ran out of time, nor a wait for a free connection of a busy pool.
 */
function brokenConnection(error: unknown): boolean {
  return (
    isDatabaseUnavailable(error) &&
    !isQueryTimeout(error) &&
    !/timeout exceeded when trying to connect|Query read timeout/.test(
      String((error as Error)?.message),
    )
  );
}

/** SQLSTATE of a standby cancelling a query that conflicts with replay. */
const RECOVERY_CONFLICT = '40001';

/** The primary's WAL position of what is flushed: what replicas can have replayed. */
const PRIMARY_POSITION = statement(() =>
  builder.selectNoFrom(sql<string>`pg_current_wal_lsn()::text`.as('lsn')),
);

/** The primary's WAL position after everything inserted so far. */
const WRITE_POSITION = statement(() =>
  builder.selectNoFrom(
    sql<string>`pg_current_wal_insert_lsn()::text`.as('lsn'),
  ),
);

/** The replicas of DATABASE_REPLICA_URL, each with a pool as the primary's, polled. */
async function replicaSet(
  config: AppConfig,
  primary: Database,
): Promise<ReplicaSet> {
  // A poll that hangs (a paused server) is given up on: the replica's
  // staleness then grows past the bound and it is not read.
  const pollTimeoutMs = Math.max(1000, config.databaseReplicaMaxLagMs);
  const replicas = await Promise.all(
    config.databaseReplicaUrls.map(async (url, i): Promise<Replica> => {
      const choice = new ServerChoice(
        parseConnectionString(url),
        config.databaseConnectTimeoutMs,
      );
      const pool = boundedPool(
        config,
        {
          keepAlive: true,
          max: config.databasePoolSize,
          connectionTimeoutMillis: config.databaseConnectTimeoutMs,
        },
        choice,
      );
      return {
        name: `replica ${i + 1} (${choice.target.description})`,
        statements: poolStatements(
          pool,
          config.databasePreparedStatements ? statementNames() : undefined,
        ),
        async replayPosition() {
          const { rows } = await pool.query({
            text: 'SELECT pg_last_wal_replay_lsn()::text AS lsn',
            query_timeout: pollTimeoutMs,
          } as { text: string });
          // Null on a server that is no standby.
          const lsn: unknown = rows[0]?.lsn;
          return typeof lsn === 'string' ? parseLsn(lsn) : null;
        },
        close: () => pool.end(),
      };
    }),
  );
  return new ReplicaSet(
    replicas,
    async () => {
      try {
        const [{ lsn }] = await primary.aside.rows(PRIMARY_POSITION, {});
        return parseLsn(lsn);
      } catch (error) {
        throw Object.assign(error as Error, {
          lost: isDatabaseUnavailable(error) && !isQueryTimeout(error),
        });
      }
    },
    config.databaseReplicaMaxLagMs,
  ).start();
}

/** One connection of its own through a connection string, to the server it chooses. */
async function connectOnce(url: string, timeoutMs: number): Promise<Client> {
  const choice = new ServerChoice(parseConnectionString(url), timeoutMs);
  const chosen = await choice.choose();
  const client = new Client(chosen.config);
  client.on('error', () => undefined);
  await client.connect();
  try {
    await choice.verify(client, chosen.generation);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

function clientSession(client: Client): SqlSession {
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    exec: async (sql) => void (await client.query(sql)),
  };
}

function postgresDriver(
  pool: Pool,
  description: string,
  onClose: OnClose,
): Connections {
  return {
    description,
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    async withSession(work) {
      const client = await pool.connect();
      try {
        return await work(clientSession(client as unknown as Client));
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
      await onClose();
    },
  };
}

function pgliteDriver(
  db: PGlite,
  description: string,
  onClose: OnClose,
): Connections {
  return {
    description,
    // One in-process connection, always open.
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    withSession: (work) =>
      work({
        query: async <T>(sql: string, params?: unknown[]) =>
          (await db.query<T>(sql, params)).rows,
        exec: async (sql) => void (await db.exec(sql)),
      }),
    async close() {
      await db.close();
      await onClose();
    },
  };
}

/**
 * PGlite, its Prisma adapter and the embedded database's directory and
 * socket, required when the embedded database is used: a service or a
 * command on PostgreSQL loads none of them.
 */
function embeddedModules() {
  const { PGlite } = require('@electric-sql/pglite') as PGliteModule;
  const { PrismaPGlite } = require('pglite-prisma-adapter') as AdapterModule;
  const { openEmbedded } = require('./embedded-database') as EmbeddedModule;
  return { PGlite, PrismaPGlite, openEmbedded };
}
type PGliteModule = typeof import('@electric-sql/pglite');
type AdapterModule = typeof import('pglite-prisma-adapter');
type EmbeddedModule = typeof import('./embedded-database');

/**
 * How long a transaction waits for a connection and may run: as long as any
 * other query may (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS),
 * not Prisma's defaults of 2 s and 5 s, which a loaded pool reaches while
 * single statements still succeed.
 */
export const transactionOptions = (config: AppConfig) => ({
  maxWait: config.databaseConnectTimeoutMs,
  timeout: config.databaseQueryTimeoutMs,
});
