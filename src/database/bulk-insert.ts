/** Column name → [SQL type, property of the row that fills it]. */
export type Columns = Record<string, readonly [string, string]>;

type Executor = {
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
};

const ROWS_PER_STATEMENT = 5000;

/**
 * Inserts rows of one tenant into `table`. The rows travel as one JSON
 * parameter per statement, unpacked by jsonb_to_recordset: a few statements
 * for the largest tenant instead of one bound parameter per value. Table and
 * column names come from the caller's constants, never from input.
 */
export async function insertRows(
  tx: Executor,
  table: string,
  tenantId: string,
  columns: Columns,
  rows: object[],
): Promise<void> {
  const entries = Object.entries(columns);
  const names = entries.map(([name]) => `"${name}"`).join(', ');
  const record = entries
    .map(([, [type, key]]) => `"${key}" ${isEnum(type) ? 'text' : type}`)
    .join(', ');
  const values = entries
    .map(([, [type, key]]) =>
      isEnum(type) ? `x."${key}"::${type}` : `x."${key}"`,
    )
    .join(', ');
  const sql = `INSERT INTO "${table}" ("tenant_id", ${names})
               SELECT $1, ${values} FROM jsonb_to_recordset($2::jsonb) AS x(${record})`;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    await tx.$executeRawUnsafe(
      sql,
      tenantId,
      JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT)),
    );
}

/** The project's own enum types, which jsonb_to_recordset reads as text. */
const isEnum = (type: string) => type === 'token_type';
