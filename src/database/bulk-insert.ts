import { sql } from 'kysely';
import type { StatementRunner } from './database';

/** Column name → [SQL type, property of the row that fills it]. */
export type Columns = Record<string, readonly [string, string]>;

const ROWS_PER_STATEMENT = 5000;

/**
 * Inserts rows of one tenant into `table`. The rows travel as one JSON
 * parameter per statement, unpacked by jsonb_to_recordset: a few statements
 * for the largest tenant instead of one bound parameter per value. Table,
 * column names and types come from the caller's constants, never from input.
 */
export async function insertRows(
  tx: StatementRunner,
  table: string,
  tenantId: string,
  columns: Columns,
  rows: object[],
): Promise<void> {
  const entries = Object.entries(columns);
  const names = sql.join(entries.map(([name]) => sql.ref(name)));
  const record = sql.raw(
    entries
      .map(([, [type, key]]) => `"${key}" ${isEnum(type) ? 'text' : type}`)
      .join(', '),
  );
  const values = sql.join(
    entries.map(([, [type, key]]) =>
      isEnum(type)
        ? sql`x.${sql.ref(key)}::${sql.raw(type)}`
        : sql`x.${sql.ref(key)}`,
    ),
  );
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const json = JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT));
    await tx.query(sql<never>`
      INSERT INTO ${sql.table(table)} (tenant_id, ${names})
      SELECT ${tenantId}, ${values}
        FROM jsonb_to_recordset(${json}::jsonb) AS x(${record})`);
  }
}

/** The project's own enum types, which jsonb_to_recordset reads as text. */
const isEnum = (type: string) => type === 'token_type';
