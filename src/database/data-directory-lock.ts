import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/** The process that holds an embedded database's directory. */
export interface DirectoryOwner {
  pid: number;
  /** `service` serves the database to other processes; `cli` does not. */
  role: 'service' | 'cli';
  /** Where the service serves it (PostgreSQL wire protocol), when it does. */
  socketDir?: string;
  /** The service's base URL, for messages. */
  url?: string;
}

export class DataDirectoryInUse extends Error {}

const lockFile = (dataDir: string) => `${dataDir}.lock`;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process holding `dataDir`, if any; a lock left by a dead one does not count. */
export function directoryOwner(dataDir: string): DirectoryOwner | undefined {
  let owner: DirectoryOwner;
  try {
    owner = JSON.parse(
      readFileSync(lockFile(dataDir), 'utf8'),
    ) as DirectoryOwner;
  } catch {
    return undefined;
  }
  return Number.isInteger(owner.pid) && isRunning(owner.pid)
    ? owner
    : undefined;
}

export function describeOwner(owner: DirectoryOwner): string {
  return owner.role === 'service'
    ? `the service (PID ${owner.pid}${owner.url ? `, ${owner.url}` : ''})`
    : `a command (PID ${owner.pid})`;
}

/** A data directory held by this process. */
export interface DirectoryLock {
  /** Records where the service now serves the database. */
  announce(details: Pick<DirectoryOwner, 'socketDir' | 'url'>): void;
  release(): void;
}

/** A lock file with its whole content, or false when one exists: never a half-written one. */
function create(file: string, owner: DirectoryOwner): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, JSON.stringify(owner), { mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** How long a takeover may hold its guard before another process counts it as left behind. */
const GUARD_STALE_MS = 5000;

const pause = (ms: number) =>
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Removes a lock left by a dead process, once: processes starting together
 * take turns through a guard directory (mkdir is atomic), and each looks
 * again under it, so none removes a lock another one has just taken.
 */
function removeStale(dataDir: string, file: string) {
  const guard = `${file}.takeover`;
  for (;;) {
    try {
      mkdirSync(guard, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = statSync(guard, { throwIfNoEntry: false });
      if (since && Date.now() - since.mtimeMs > GUARD_STALE_MS)
        rmSync(guard, { recursive: true, force: true });
      else pause(20);
    }
  }
  try {
    if (!directoryOwner(dataDir)) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
}

/**
 * Takes `dataDir` for this process: one process at a time may open an
 * embedded database, which two writers would corrupt. The lock file is
 * created whole and exclusively (a link to a written draft) and holds the
 * owner's PID; a file left by a process that no longer runs is taken over,
 * by one process only when several start at once. Throws
 * DataDirectoryInUse naming the live owner.
 */
export function lockDataDirectory(
  dataDir: string,
  role: DirectoryOwner['role'],
): DirectoryLock {
  const file = lockFile(dataDir);
  const owner: DirectoryOwner = { pid: process.pid, role };
  // A fresh clone has no .data/ yet: the lock sits beside the directory.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 20; attempt++) {
    if (create(file, owner)) {
      let released = false;
      return {
        announce(details) {
          const next = `${file}.${process.pid}`;
          writeFileSync(next, JSON.stringify({ ...owner, ...details }), {
            mode: 0o600,
          });
          renameSync(next, file);
        },
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    }
    const live = directoryOwner(dataDir);
    if (live)
      throw new DataDirectoryInUse(
        `The embedded database ${dataDir} is in use by ${describeOwner(live)}. ` +
          'Stop it first, or set DATA_DIR to another directory.',
      );
    removeStale(dataDir, file);
  }
  throw new DataDirectoryInUse(
    `The embedded database ${dataDir} is being opened by another process; try again.`,
  );
}
