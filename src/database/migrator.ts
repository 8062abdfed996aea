import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SqlSession } from './database';

export const MIGRATIONS_DIR = resolve(__dirname, '../../prisma/migrations');

/** The advisory lock key `prisma migrate` takes, so the two exclude each other. */
const PRISMA_MIGRATE_LOCK = 72707369;

// The table exactly as Prisma Migrate creates it.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

export class MigrationError extends Error {}

/** Reads `<dir>/<timestamp>_<name>/migration.sql` in name order. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dir, name, 'migration.sql'));
      return {
        name,
        sql: bytes.toString('utf8'),
        checksum: createHash('sha256').update(bytes).digest('hex'),
      };
    });
}

/**
 * Applies the migrations that are not applied yet, each in its own
 * transaction together with its `_prisma_migrations` record. Every
 * transaction first takes the transaction-scoped form of the advisory lock
 * `prisma migrate deploy` takes, then reads what is applied: instances
 * starting at once apply each migration exactly once, and no lock outlives
 * its transaction, so this works through a pooler in transaction mode
 * (PgBouncer) too, where a session lock could stay behind on a server
 * connection. Refuses to run when an applied migration's file has changed
 * or an earlier migration failed half-way. Returns the names of the
 * migrations this call applied.
 */
export async function migrate(
  session: SqlSession,
  migrations: Migration[] = readMigrations(),
): Promise<string[]> {
  await locked(session, () => session.exec(CREATE_MIGRATIONS_TABLE));
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await locked(session, async () => {
      const rows = await session.query<AppliedRow>(
        `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
          WHERE rolled_back_at IS NULL`,
      );
      const row = rows.find((r) => r.migration_name === migration.name);
      checkApplied(migrations, rows);
      if (row) return false;
      await apply(session, migration);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}

/** Runs `work` in a transaction that first takes the migrations' lock. */
async function locked<T>(
  session: SqlSession,
  work: () => Promise<T>,
): Promise<T> {
  await session.exec('BEGIN');
  try {
    await session.query('SELECT pg_advisory_xact_lock($1)', [
      PRISMA_MIGRATE_LOCK,
    ]);
    const result = await work();
    await session.exec('COMMIT');
    return result;
  } catch (error) {
    await session.exec('ROLLBACK');
    throw error;
  }
}

/** Refuses applied migrations whose files changed, or that never finished. */
function checkApplied(migrations: Migration[], rows: AppliedRow[]): void {
  for (const row of rows) {
    const file = migrations.find((m) => m.name === row.migration_name);
    if (!row.finished_at)
      throw new MigrationError(
        `Migration ${row.migration_name} failed earlier and was never finished; resolve it before starting.`,
      );
    if (file && row.checksum !== file.checksum)
      throw new MigrationError(
        `Migration ${file.name} was changed after it was applied (checksum ${row.checksum} in the database, ${file.checksum} on disk).`,
      );
  }
}

async function apply(session: SqlSession, migration: Migration): Promise<void> {
  const startedAt = new Date();
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations"
         (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, $4, 1)`,
      [randomUUID(), migration.checksum, migration.name, startedAt],
    );
  } catch (error) {
    throw new MigrationError(
      `Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`,
    );
  }
}
