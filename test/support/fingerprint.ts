import { Database } from '../../src/database/database';

const TABLES = [
  'tenant',
  'token_issuer',
  'account_provider',
  'identity',
  'account',
  'friendship',
  'role',
  'role_assignment',
  'token',
  'identity_event',
];

/**
 * One hash over every row of every table: equal hashes, equal data. A
 * token's last use is bookkeeping of reads, not data a request changes.
 */
export async function fingerprint(database: Database): Promise<string> {
  const parts = TABLES.map(
    (table) =>
      `(SELECT md5(coalesce(string_agg(r, '|' ORDER BY r), '')) FROM (SELECT (to_jsonb(t) - 'last_used_at')::text AS r FROM "${table}" t) AS rows)`,
  );
  const [row] = await database.prisma.$queryRawUnsafe<{ hash: string }[]>(
    `SELECT md5(${parts.join(' || ')}) AS hash`,
  );
  return row.hash;
}
