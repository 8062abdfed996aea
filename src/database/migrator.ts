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
 * transaction together with its `_prisma_migrations` record, under the same
 * advisory lock as `prisma migrate deploy`. Refuses to run when an applied
 * migration's file has changed or an earlier migration failed half-way.
 * Returns the names of the migrations it applied.
 */
export async function migrate(
  session: SqlSession,
  migrations: Migration[] = readMigrations(),
): Promise<string[]> {
  await session.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
  try {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await session.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
        WHERE rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row]));
    const pending: Migration[] = [];
    for (const migration of migrations) {
      const row = applied.get(migration.name);
      if (!row) pending.push(migration);
      else if (!row.finished_at)
        throw new MigrationError(
          `Migration ${migration.name} failed earlier and was never finished; resolve it before starting.`,
        );
      else if (row.checksum !== migration.checksum)
        throw new MigrationError(
          `Migration ${migration.name} was changed after it was applied (checksum ${row.checksum} in the database, ${migration.checksum} on disk).`,
        );
    }
    for (const migration of pending) await apply(session, migration);
    return pending.map((m) => m.name);
  } finally {
    await session.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]);
  }
}

async function apply(session: SqlSession, migration: Migration): Promise<void> {
  const startedAt = new Date();
  await session.exec('BEGIN');
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations"
         (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
      [randomUUID(), migration.checksum, migration.name, startedAt],
    );
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK');
    throw new MigrationError(
      `Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`,
    );
  }
}
