import { hostname } from 'node:os';
import { createServer } from 'node:net';
import { MigrationError } from '../database/migrator';
import { errorCodes, failedConnection } from '../database/database-errors';
import {
  describeDatabaseUrl,
  userOfDatabaseUrl,
} from '../database/database-url';
import { DataDirectoryInUse } from '../database/data-directory-lock';

/** A reason the service or the command line cannot start, said in one line. */
export class StartupError extends Error {}

/**
 * One line saying what failed and what to do, for the failures a new user
 * meets: a database that is not running, missing, or refusing the login, a
 * port in use, a data directory held by another process. Anything else is
 * an unexpected failure and keeps its own message (never a stack or a
 * driver's error object).
 */
export function explainStartupError(
  error: unknown,
  {
    databaseUrl,
    databaseVariable = 'DATABASE_URL',
    port,
  }: { databaseUrl?: string; databaseVariable?: string; port?: number } = {},
): string {
  if (error instanceof StartupError || error instanceof MigrationError)
    return error.message;
  if (error instanceof DataDirectoryInUse) return error.message;
  const codes = errorCodes(error);
  // The URL connected through, unless the connection that failed was another.
  const through = failedConnection(error);
  const variable = through?.variable ?? databaseVariable;
  const url = through?.url ?? databaseUrl;
  const where = url ? describeDatabaseUrl(url) : '';
  const server = where.slice(0, where.indexOf('/')) || where;
  const name = where.slice(where.indexOf('/') + 1);
  const user = (url && userOfDatabaseUrl(url)) || 'the default user';
  if (codes.includes('3D000'))
    return `PostgreSQL at ${server} has no database "${name}": create it (createdb -h ${server.replace(':', ' -p ')} ${name}) or point ${variable} at an existing one.`;
  if (codes.some((code) => code === '28P01' || code === '28000'))
    return `PostgreSQL at ${server} refused the login of ${user === 'the default user' ? user : `user "${user}"`}: check the user and password in ${variable}.`;
  if (codes.includes('57P03'))
    return `PostgreSQL at ${server} is starting up or shutting down: try again in a moment.`;
  if (codes.includes('53300'))
    return `PostgreSQL at ${server} accepts no more connections: lower DATABASE_POOL_SIZE or raise the server's max_connections.`;
  if (
    codes.some((code) =>
      ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT'].includes(code),
    ) ||
    (error instanceof Error && /timeout/i.test(error.message))
  )
    return `Cannot reach PostgreSQL at ${server}: is it running there? Check ${variable}.`;
  if (codes.includes('EADDRINUSE') && port !== undefined)
    return portInUse(port);
  // Servers that answered, none of them as target_session_attrs asks.
  if (codes.includes('08001') && error instanceof Error)
    return `${error.message}. Check ${variable}.`;
  return `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
}

/** That `port` is taken, with a port found free to suggest when there is one. */
const portInUse = (port: number, free?: number) =>
  `Port ${port} is already in use by another process: set PORT to a free one${free === undefined ? '' : ` (for example PORT=${free} npm start)`}.`;

/** Whether `port` can be listened on now. */
const canListen = (port: number, host?: string) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });

/** The first of the ten ports after `port` that is free now, if any. */
async function freePortAfter(
  port: number,
  host?: string,
): Promise<number | undefined> {
  for (let next = port + 1; next <= Math.min(port + 10, 65535); next++)
    if (await canListen(next, host)) return next;
  return undefined;
}

/**
 * Fails fast, before connecting to anything, when `port` is taken: the
 * server would otherwise find out only after migrating and seeding.
 */
export async function assertPortFree(
  port: number,
  host?: string,
): Promise<void> {
  const taken = await new Promise<boolean>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(true) : reject(error),
    );
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
  if (taken)
    throw new StartupError(portInUse(port, await freePortAfter(port, host)));
}

/**
 * Writes a fatal start-up message: a plain line on a terminal, a JSON log
 * line (as the service's other logs) when the output goes to a collector.
 */
export function reportFatal(message: string): void {
  if (process.stderr.isTTY) {
    process.stderr.write(`${message}\n`);
    return;
  }
  process.stdout.write(
    `${JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, hostname: hostname(), context: 'Start', msg: message })}\n`,
  );
}
