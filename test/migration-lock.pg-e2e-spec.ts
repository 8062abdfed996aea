import { Database } from '../src/database/database';
import { migrate, readMigrations } from '../src/database/migrator';
import { createTestDatabase } from './support/test-database';

// PostgreSQL only: an embedded database belongs to one process.
describe('two instances migrating one empty database at once', () => {
  it('apply each migration exactly once', async () => {
    const db = await createTestDatabase(
      { migrateOnStart: false },
      { empty: true },
    );
    const [a, b] = await Promise.all([
      Database.connect(db.config),
      Database.connect(db.config),
    ]);
    try {
      const applied = await Promise.all([
        a.withSession((s) => migrate(s)),
        b.withSession((s) => migrate(s)),
      ]);
      // Each migration once, by whichever instance took the lock first.
      expect(applied.flat().sort()).toStrictEqual(
        readMigrations().map((m) => m.name),
      );
      const rows = await a.withSession((s) =>
        s.query('SELECT migration_name FROM "_prisma_migrations"'),
      );
      expect(rows).toHaveLength(readMigrations().length);
      // The lock lives as long as each migration's transaction, no longer.
      const locks = await a.withSession((s) =>
        s.query(
          `SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
            WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
        ),
      );
      expect(locks).toStrictEqual([]);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
