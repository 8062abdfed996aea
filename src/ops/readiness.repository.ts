import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { builder, statement } from '../database/sql';

/** Prisma's record of the migrations applied: its table, not the schema's. */
type MigrationsTable = {
  _prisma_migrations: {
    migration_name: string;
    finished_at: Date | null;
    rolled_back_at: Date | null;
  };
};

const APPLIED = statement(() =>
  builder
    .withTables<MigrationsTable>()
    .selectFrom('_prisma_migrations')
    .select('migration_name as name')
    .where('finished_at', 'is not', null)
    .where('rolled_back_at', 'is', null),
);

@Injectable()
export class ReadinessRepository {
  constructor(private readonly database: Database) {}

  /** Names of the migrations the database has applied. */
  async appliedMigrations(): Promise<string[]> {
    const rows = await this.database.primary.rows(APPLIED, {});
    return rows.map((row) => row.name);
  }

  /** Whether no primary can be reached while replicas within their bound answer the reads. */
  readsWithoutPrimary(): boolean {
    const replicas = this.database.replicas;
    return !!replicas?.primaryLost && replicas.anyWithinBound();
  }
}
