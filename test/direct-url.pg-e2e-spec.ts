import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { readMigrations } from '../src/database/migrator';
import { withClient } from './support/postgres-admin';
import { withTestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';
import { freePort } from './support/free-port';

// DATABASE_URL is the pooled URL; DATABASE_DIRECT_URL the primary itself,
// where the migrations and the command line connect. Here the two are
// different databases, so that each answer tells which one was used.
const ROOT = resolve(__dirname, '..');
const EXAMPLE = join(ROOT, 'test', 'fixtures', 'example-tenant.json');

const migrationsIn = (url: string) =>
  withClient(
    async (c) =>
      (
        await c.query<{ name: string }>(
          'SELECT migration_name AS name FROM _prisma_migrations ORDER BY 1',
        )
      ).rows.map((r) => r.name),
    url,
  );

describe('the direct URL', () => {
  it('takes the migrations the service applies at start', async () => {
    const direct = await createTestDatabase({}, { empty: true });
    const config = {
      migrateOnStart: true,
      databaseDirectUrl: direct.config.databaseUrl,
    };
    try {
      await withTestApp({ config }, async (t) => {
        expect(await migrationsIn(direct.config.databaseUrl!)).toStrictEqual(
          readMigrations().map((m) => m.name),
        );
        await t.http().get('/health/ready').expect(200);
      });
    } finally {
      await direct.drop();
    }
  });

  it('is where the command line works, even while the pooled URL does not answer', async () => {
    const direct = await createTestDatabase({}, { empty: true });
    const down = `postgresql://postgres@127.0.0.1:${await freePort()}/pooled`;
    try {
      const r = spawnSync(
        process.execPath,
        [join(ROOT, 'dist', 'cli.js'), 'import', EXAMPLE],
        {
          env: {
            PATH: process.env.PATH,
            DATABASE_URL: down,
            DATABASE_DIRECT_URL: direct.config.databaseUrl,
          },
          encoding: 'utf8',
          cwd: ROOT,
        },
      );
      expect(r.stderr).toMatch(/^Database: PostgreSQL at [^\n]+\n$/);
      expect(r.stdout).toMatch(/^Imported tenant "example"/);
      expect(r.status).toBe(0);
    } finally {
      await direct.drop();
    }
  });

  it('is the one named when it does not answer', async () => {
    const pooled = await createTestDatabase({}, { empty: true });
    const port = await freePort();
    try {
      const r = spawnSync(
        process.execPath,
        [join(ROOT, 'dist', 'cli.js'), 'import', EXAMPLE],
        {
          env: {
            PATH: process.env.PATH,
            DATABASE_URL: pooled.config.databaseUrl,
            DATABASE_DIRECT_URL: `postgresql://postgres@127.0.0.1:${port}/primary`,
          },
          encoding: 'utf8',
          cwd: ROOT,
        },
      );
      expect(r.stderr).toBe(
        `Cannot reach PostgreSQL at 127.0.0.1:${port}: is it running there? Check DATABASE_DIRECT_URL.\n`,
      );
      expect(r.stdout).toBe('');
      expect(r.status).toBe(1);
    } finally {
      await pooled.drop();
    }
  });
});
