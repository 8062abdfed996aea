import { Client } from 'pg';
import { SqlSession } from '../../src/database/database';

/** The server that e2e tests create their databases on. */
export const ADMIN_URL =
  process.env.TEST_DATABASE_URL ??
  'postgresql://postgres@127.0.0.1:5432/postgres';

/** The URL of another database on the same server. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on a connection of its own to `url` (the admin database). */
export async function withClient<T>(
  work: (client: Client) => Promise<T>,
  url = ADMIN_URL,
): Promise<T> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `The PostgreSQL e2e tests need a server at ${ADMIN_URL} (set TEST_DATABASE_URL): ${(error as Error).message}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A client as the project's migrator takes it. */
export const sqlSession = (client: Client): SqlSession => ({
  query: async (sql, params) => (await client.query(sql, params)).rows,
  exec: async (sql) => void (await client.query(sql)),
});
