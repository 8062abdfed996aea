import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PoolConfig } from 'pg';
import { AppConfig } from '../config/app-config';
import type { DatabaseRole } from './database-role';
import {
  describeOwner,
  directoryOwner,
  DirectoryLock,
  lockDataDirectory,
} from './data-directory-lock';
import { wholeExchanges } from './whole-exchanges';

/** Extra work when a database closes (stop serving it, release its directory). */
export type OnClose = () => Promise<void> | void;

/** How to reach an opened embedded database. */
export type EmbeddedConnection =
  | {
      kind: 'socket';
      connection: PoolConfig;
      description: string;
      onClose?: OnClose;
    }
  | {
      kind: 'in-process';
      pglite: PGlite;
      description: string;
      onClose: OnClose;
    };

/**
 * Opens the embedded database in `config.dataDir`. One process owns a data
 * directory (two writers would corrupt it): the service takes it and serves
 * it on a Unix socket; a command connects to that socket while the service
 * runs, and opens the directory itself only when no service does.
 */
export async function openEmbedded(
  config: AppConfig,
  role: DatabaseRole,
): Promise<EmbeddedConnection> {
  const dir = resolve(config.dataDir);
  const owner =
    role === 'command' ? await servingOwner(dir) : directoryOwner(dir);
  if (role === 'command' && owner?.role === 'service' && owner.socketDir)
    return {
      kind: 'socket',
      connection: { ...servedAt(owner.socketDir), max: 1 },
      description: `embedded PGlite at ${dir}, served by ${describeOwner(owner)}`,
    };
  const lock = lockDataDirectory(dir, role === 'service' ? 'service' : 'cli');
  try {
    mkdirSync(dir, { recursive: true });
    const pglite = await PGlite.create(dir);
    if (role === 'command')
      return {
        kind: 'in-process',
        pglite,
        description: `embedded PGlite at ${dir}`,
        onClose: () => lock.release(),
      };
    return await serve(config, pglite, dir, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * Serves the database with the PostgreSQL wire protocol on a Unix socket of
 * its own (a short path under the temporary directory, one per data
 * directory, open to this user only). PGlite has a single session, so its
 * connections take turns a whole exchange (up to ReadyForQuery) or
 * transaction at a time (whole-exchanges.ts): the service reaches
 * the database through the socket too, over one connection, so that its
 * transactions and a command's never interleave.
 */
async function serve(
  config: AppConfig,
  pglite: PGlite,
  dir: string,
  lock: DirectoryLock,
): Promise<EmbeddedConnection> {
  const socketDir = join(
    tmpdir(),
    `identity-pglite-${createHash('sha256').update(dir).digest('hex').slice(0, 12)}`,
  );
  rmSync(socketDir, { recursive: true, force: true });
  mkdirSync(socketDir, { mode: 0o700 });
  const server = new PGLiteSocketServer({
    db: wholeExchanges(pglite),
    path: join(socketDir, SOCKET_FILE),
    maxConnections: 16,
  });
  await server.start();
  lock.announce({ socketDir, url: `http://localhost:${config.port}` });
  return {
    kind: 'socket',
    connection: { ...servedAt(socketDir), max: 1 },
    description: `embedded PGlite at ${dir}`,
    async onClose() {
      await server.stop();
      await pglite.close();
      rmSync(socketDir, { recursive: true, force: true });
      lock.release();
    },
  };
}

/** How long a command waits for a starting service to serve its database. */
const SERVICE_START_WAIT_MS = 30_000;

/** The directory's owner; when a service is starting, once it serves the database. */
async function servingOwner(dir: string) {
  const deadline = Date.now() + SERVICE_START_WAIT_MS;
  for (;;) {
    const owner = directoryOwner(dir);
    if (owner?.role !== 'service' || owner.socketDir || Date.now() > deadline)
      return owner;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** PostgreSQL clients name a Unix socket by its folder and this file name. */
const SOCKET_FILE = '.s.PGSQL.5432';

const servedAt = (socketDir: string): PoolConfig => ({
  host: socketDir,
  port: 5432,
  user: 'postgres',
  database: 'postgres',
});
