import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { AppConfig, loadConfig } from '../../src/config/app-config';

declare const TEST_DATABASE_KIND: 'postgres' | 'embedded';

/** The server that e2e tests create their databases on. */
export const ADMIN_URL =
  process.env.TEST_DATABASE_URL ??
  'postgresql://postgres@127.0.0.1:5432/postgres';

export const databaseKind = (): 'postgres' | 'embedded' => TEST_DATABASE_KIND;

export interface TestDatabase {
  config: AppConfig;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `The PostgreSQL e2e tests need a server at ${ADMIN_URL} (set TEST_DATABASE_URL): ${(error as Error).message}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for one test file: PostgreSQL or in-memory PGlite. */
export async function createTestDatabase(
  overrides: Partial<AppConfig> = {},
): Promise<TestDatabase> {
  const config = loadConfig({ SEED_DEMO: 'false', LOG_LEVEL: 'error' });
  if (databaseKind() === 'embedded')
    return {
      config: Object.assign(config, { dataDir: 'memory://' }, overrides),
      drop: async () => {},
    };
  const name = `identity_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    config: Object.assign(
      config,
      { databaseUrl: url.toString(), databasePoolSize: 4 },
      overrides,
    ),
    drop: () => admin((c) => dropWhenIdle(c, name)),
  };
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
