import { parseConnectionString } from './connection-string';

/**
 * Where a PostgreSQL connection string points: `host:port/name`, several
 * hosts separated by commas, never credentials.
 */
export function describeDatabaseUrl(url: string): string {
  return parseConnectionString(url).description;
}

/** The user a connection string logs in as, or undefined when it names none. */
export function userOfDatabaseUrl(url: string): string | undefined {
  const parsed = parseConnectionString(url);
  return parsed.configFor(parsed.servers[0], false).user || undefined;
}
