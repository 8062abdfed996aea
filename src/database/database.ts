import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Pool } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { AppConfig } from '../config/app-config';
import { PrismaClient } from '../generated/prisma/client';

/** A single connection, for work that needs one (migrations, locks). */
export interface SqlSession {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of one or more statements without parameters. */
  exec(sql: string): Promise<void>;
}

/** Connections of the pool: open, idle, and requests waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

interface Driver {
  readonly description: string;
  poolStats(): PoolStats;
  withSession<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The database the service runs on: PostgreSQL when a connection string is
 * configured, otherwise an embedded PGlite. Both are reached through the
 * same Prisma client and migrated by the same SQL files.
 */
export class Database {
  private constructor(
    readonly prisma: PrismaClient,
    private readonly driver: Driver,
  ) {}

  static async connect(config: AppConfig): Promise<Database> {
    if (config.databaseUrl) {
      const pool = new Pool({
        connectionString: config.databaseUrl,
        max: config.databasePoolSize,
        connectionTimeoutMillis: config.databaseConnectTimeoutMs,
        query_timeout: config.databaseQueryTimeoutMs,
        keepAlive: true,
      });
      const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
      return new Database(prisma, postgresDriver(pool, config.databaseUrl));
    }
    const pglite = await openPglite(config.dataDir);
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    return new Database(prisma, pgliteDriver(pglite, config.dataDir));
  }

  /** Where the data lives, without credentials, for logs. */
  get description(): string {
    return this.driver.description;
  }

  withSession<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.driver.withSession(work);
  }

  poolStats(): PoolStats {
    return this.driver.poolStats();
  }

  async close(): Promise<void> {
    await this.prisma.$disconnect();
    await this.driver.close();
  }
}

async function openPglite(dataDir: string): Promise<PGlite> {
  if (dataDir.startsWith('memory://')) return PGlite.create(dataDir);
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  return PGlite.create(dir);
}

function postgresDriver(pool: Pool, url: string): Driver {
  const { hostname, port, pathname } = new URL(url);
  return {
    description: `PostgreSQL at ${hostname}:${port || 5432}${pathname}`,
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    async withSession(work) {
      const client = await pool.connect();
      try {
        return await work({
          query: async (sql, params) => (await client.query(sql, params)).rows,
          exec: async (sql) => void (await client.query(sql)),
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

function pgliteDriver(db: PGlite, dataDir: string): Driver {
  return {
    description: dataDir.startsWith('memory://')
      ? 'embedded PGlite in memory'
      : `embedded PGlite at ${resolve(dataDir)}`,
    // One in-process connection, always open.
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    withSession: (work) =>
      work({
        query: async <T>(sql: string, params?: unknown[]) =>
          (await db.query<T>(sql, params)).rows,
        exec: async (sql) => void (await db.exec(sql)),
      }),
    close: () => db.close(),
  };
}
