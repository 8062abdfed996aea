import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database';
import { parseKeys } from '../../src/config/secret-keys';
import { useShared } from './lifecycle';
import { copyTemplateTo, startFromTemplate } from './pglite-template';
import { databaseUrl, withClient } from './postgres-admin';
import { POSTGRES_TEMPLATE } from './templates';

declare const TEST_DATABASE_KIND: 'postgres' | 'embedded';

/** The operator key of the tests on PostgreSQL (SECRET_KEYS); the embedded database keeps its own. */
export const TEST_SECRET_KEYS = `test-key:${Buffer.alloc(32, 7).toString('base64')}`;

export const databaseKind = (): 'postgres' | 'embedded' => TEST_DATABASE_KIND;

export interface TestDatabase {
  config: AppConfig;
  drop(): Promise<void>;
}

/**
 * A fresh database of its own, PostgreSQL or in-memory PGlite: migrated
 * (a copy of the template), or `empty` for tests of the migrator itself.
 */
export async function createTestDatabase(
  overrides: Partial<AppConfig> = {},
  { empty = false } = {},
): Promise<TestDatabase> {
  const config = loadConfig({ SEED_DEMO: 'false', LOG_LEVEL: 'error' });
  const name = `identity_test_${randomBytes(6).toString('hex')}`;
  if (databaseKind() === 'embedded') {
    const dataDir = `memory://${name}`;
    if (!empty) startFromTemplate(dataDir);
    return {
      config: Object.assign(
        config,
        { dataDir, secretKeys: { kind: 'memory' } },
        overrides,
      ),
      drop: async () => {},
    };
  }
  await withClient((c) =>
    c.query(
      empty
        ? `CREATE DATABASE ${name}`
        : `CREATE DATABASE ${name} TEMPLATE ${POSTGRES_TEMPLATE}`,
    ),
  );
  return {
    config: Object.assign(
      config,
      {
        databaseUrl: databaseUrl(name),
        databasePoolSize: 4,
        secretKeys: {
          kind: 'given',
          keys: parseKeys(TEST_SECRET_KEYS, 'tests'),
        },
      },
      overrides,
    ),
    drop: () => withClient((c) => dropWhenIdle(c, name)),
  };
}

/**
 * A database of its own (see createTestDatabase), connected, for the tests
 * of a describe block that work below the service: made before them,
 * closed and dropped after them.
 */
export function useTestDatabase(
  overrides: Partial<AppConfig> = {},
  options: { empty?: boolean } = {},
): Database {
  let db: TestDatabase | undefined;
  return useShared(
    'the test database',
    async () => {
      db = await createTestDatabase(overrides, options);
      return Database.connect(db.config);
    },
    async (database) => {
      await database.close();
      await db?.drop();
    },
  );
}

/**
 * A new data directory for a server process of its own on the embedded
 * database (PostgreSQL runs leave it unused): migrated (a copy of the
 * template), or `empty` as a new installation has it.
 */
export async function serverDataDir(
  prefix: string,
  { empty = false } = {},
): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), prefix)), 'pglite');
  if (databaseKind() === 'embedded' && !empty) await copyTemplateTo(dir);
  return dir;
}

/**
 * A closed pool's connections linger for a moment; dropping the database
 * under them would make them report errors. Wait for them to go first.
 */
async function dropWhenIdle(client: Client, name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await client.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0].n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
