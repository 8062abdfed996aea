/** Where a PostgreSQL connection string points: host:port/name, never credentials. */
export function describeDatabaseUrl(url: string): string {
  const { hostname, port, pathname } = new URL(url);
  return `${hostname}:${port || 5432}${pathname}`;
}
