import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

@Injectable()
export class ReadinessRepository {
  constructor(private readonly database: Database) {}

  /** Names of the migrations the database has applied. */
  async appliedMigrations(): Promise<string[]> {
    const rows = await this.database.prisma.$queryRaw<{ name: string }[]>`
      SELECT migration_name AS name FROM "_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    return rows.map((row) => row.name);
  }
}
