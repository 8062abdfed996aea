import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  migrate,
  MIGRATIONS_DIR,
  MigrationError,
  readMigrations,
} from '../src/database/migrator';
import { useTestDatabase } from './support/test-database';

describe('migrations', () => {
  const database = useTestDatabase({ migrateOnStart: false }, { empty: true });

  const records = () =>
    database.withSession((s) =>
      s.query<Record<string, unknown>>(
        'SELECT * FROM "_prisma_migrations" ORDER BY migration_name',
      ),
    );

  it('applies every migration once, then does nothing', async () => {
    const names = readMigrations().map((m) => m.name);
    expect(await database.withSession((s) => migrate(s))).toStrictEqual(names);
    expect(await database.withSession((s) => migrate(s))).toStrictEqual([]);
    expect((await records()).map((r) => r.migration_name)).toStrictEqual(names);
  });

  it('records each migration exactly as Prisma Migrate does', async () => {
    await database.withSession((s) => migrate(s));
    const [record] = await records();
    const file = readFileSync(
      join(MIGRATIONS_DIR, '20261121000000_init', 'migration.sql'),
    );
    expect(Object.keys(record).sort()).toStrictEqual([
      'applied_steps_count',
      'checksum',
      'finished_at',
      'id',
      'logs',
      'migration_name',
      'rolled_back_at',
      'started_at',
    ]);
    expect(record).toMatchObject({
      migration_name: '20261121000000_init',
      checksum: createHash('sha256').update(file).digest('hex'),
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
    });
    expect(record.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(record.finished_at).toBeInstanceOf(Date);
    expect((record.finished_at as Date).getTime()).toBeGreaterThanOrEqual(
      (record.started_at as Date).getTime(),
    );
  });

  it('refuses to run when an applied migration was changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    writeFileSync(
      join(dir, '20261121000000_init', 'migration.sql'),
      '-- edited\n',
      { flag: 'a' },
    );
    await expect(
      database.withSession((s) => migrate(s, readMigrations(dir))),
    ).rejects.toThrow(
      /^Migration 20261121000000_init was changed after it was applied/,
    );
  });

  it('rolls a failing migration back completely', async () => {
    const failing = {
      name: '29990101000000_broken',
      sql: 'CREATE TABLE half_done (id int); SELECT 1/0;',
      checksum: 'x',
    };
    await expect(
      database.withSession((s) => migrate(s, [...readMigrations(), failing])),
    ).rejects.toBeInstanceOf(MigrationError);
    const [{ exists }] = await database.withSession((s) =>
      s.query<{ exists: boolean }>(
        `SELECT to_regclass('half_done') IS NOT NULL AS exists`,
      ),
    );
    expect(exists).toBe(false);
    expect((await records()).map((r) => r.migration_name)).toStrictEqual(
      readMigrations().map((m) => m.name),
    );
  });
});
