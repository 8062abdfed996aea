import { Database } from '../src/database/database';
import { migrate, readMigrations } from '../src/database/migrator';
import { createTestDatabase } from './support/test-database';

// PostgreSQL only: an embedded database belongs to one process.
describe('two instances migrating one empty database at once', () => {
  it('apply each migration exactly once', async () => {
    const db = await createTestDatabase({ migrateOnStart: false });
    const [a, b] = await Promise.all([
      Database.connect(db.config),
      Database.connect(db.config),
    ]);
    try {
      const applied = await Promise.all([
        a.withSession((s) => migrate(s)),
        b.withSession((s) => migrate(s)),
      ]);
      expect(applied.flat()).toStrictEqual(readMigrations().map((m) => m.name));
      const rows = await a.withSession((s) =>
        s.query('SELECT migration_name FROM "_prisma_migrations"'),
      );
      expect(rows).toHaveLength(readMigrations().length);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
