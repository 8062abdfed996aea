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

/** One hash over every row of every table: equal hashes, equal data. */
export async function fingerprint(database: Database): Promise<string> {
  const parts = TABLES.map(
    (table) =>
      `(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM "${table}" t)`,
  );
  const [row] = await database.prisma.$queryRawUnsafe<{ hash: string }[]>(
    `SELECT md5(${parts.join(' || ')}) AS hash`,
  );
  return row.hash;
}
