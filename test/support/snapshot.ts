import type { DB } from '../../src/generated/kysely/tables';
import { Database } from '../../src/database/database';
import { readDatamodel } from './prisma-datamodel';

/** A row as PostgreSQL writes it in JSON: its columns by their names in the database. */
export type JsonRow = Record<string, unknown>;

/** Every row of every table, by table, each in the order of its primary key. */
export type Snapshot = Record<keyof DB, JsonRow[]>;

/**
 * Columns that reads move: bookkeeping, not data a request changes.
 * A token's last use is the one.
 */
const READ_BOOKKEEPING = ['last_used_at'];

let statement: string | undefined;

/**
 * One SELECT of every table of every model of prisma/schema.prisma (a
 * model added there is in it), the rows of each in their primary key's
 * order: equal snapshots, equal data.
 */
function snapshotStatement(): string {
  if (statement) return statement;
  const tables = readDatamodel().models.map((model) => {
    const column = (name: string) => {
      const field = model.fields.find((f) => f.name === name);
      return field?.dbName ?? name;
    };
    const key = model.primaryKey
      ? model.primaryKey.fields
      : model.fields.filter((f) => f.isId).map((f) => f.name);
    if (key.length === 0) throw new Error(`${model.name} has no primary key`);
    const order = key.map((name) => `t."${column(name)}"`).join(', ');
    const row = READ_BOOKKEEPING.reduce(
      (json, name) => `${json} - '${name}'`,
      'to_jsonb(t)',
    );
    const table = model.dbName ?? model.name;
    return `'${table}', (SELECT coalesce(jsonb_agg(${row} ORDER BY ${order}), '[]') FROM "${table}" t)`;
  });
  statement = `SELECT jsonb_build_object(${tables.join(', ')})::text AS tables`;
  return statement;
}

/** Every row of every table, to prove that what failed changed nothing. */
export async function snapshot(database: Database): Promise<Snapshot> {
  const [{ tables }] =
    await database.prisma.$queryRawUnsafe<{ tables: string }[]>(
      snapshotStatement(),
    );
  return JSON.parse(tables) as Snapshot;
}

/** The rows of a snapshot that belong to one tenant: its own, and those that name it. */
export function tenantRows(tenantId: string, tables: Snapshot): Snapshot {
  return Object.fromEntries(
    Object.entries(tables).map(([table, rows]) => [
      table,
      rows.filter(
        (row) => (table === 'tenant' ? row.id : row.tenant_id) === tenantId,
      ),
    ]),
  ) as Snapshot;
}
