import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrate, readMigrations } from '../../src/database/migrator';
import { databaseUrl, sqlSession, withClient } from './postgres-admin';

// Every e2e database starts as a copy of one that the project's migrator
// migrated once per test run: migrating each test's database again would
// cost more than the test itself.

/**
 * Named after the migrations and the migrator that applied them, so that a
 * change to either makes a new one.
 */
export const POSTGRES_TEMPLATE = `identity_template_${createHash('sha256')
  .update(readFileSync(join(__dirname, '../../src/database/migrator.ts')))
  .update(
    readMigrations()
      .map((m) => `${m.name}:${m.checksum}`)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 16)}`;

/** Serializes test runs that would build the same template at once. */
const TEMPLATE_LOCK = 72707370;

/** Creates the PostgreSQL template unless a run before made it already. */
export async function ensurePostgresTemplate(): Promise<void> {
  await withClient(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { rowCount } = await admin.query(
        'SELECT 1 FROM pg_database WHERE datname = $1',
        [POSTGRES_TEMPLATE],
      );
      if (rowCount) return;
      // Built under another name: a run that dies half-way leaves no
      // template that looks complete.
      const building = `${POSTGRES_TEMPLATE}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      await withClient((c) => migrate(sqlSession(c)), databaseUrl(building));
      await admin.query(
        `ALTER DATABASE ${building} RENAME TO ${POSTGRES_TEMPLATE}`,
      );
      // No connections: copying a template fails while anyone is connected.
      await admin.query(
        `ALTER DATABASE ${POSTGRES_TEMPLATE} WITH ALLOW_CONNECTIONS false`,
      );
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
}

/** Writes the data directory of a migrated in-memory PGlite to `file`. */
export async function writePgliteTemplate(file: string): Promise<void> {
  const pglite = await PGlite.create('memory://');
  try {
    await migrate({
      query: async (sql, params) => (await pglite.query<any>(sql, params)).rows,
      exec: async (sql) => void (await pglite.exec(sql)),
    });
    const tarball = await pglite.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await pglite.close();
  }
}
