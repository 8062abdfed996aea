import { ChildProcess, execFile, spawn } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './free-port';
import { until } from './until';

// A PostgreSQL primary and a streaming standby of it, real servers on free
// loopback ports in a directory of their own, started the way
// scripts/topology/components.js starts the topology's: initdb, a base
// backup that follows the primary (-R), postgres as the user `postgres`
// (it refuses root). Replication is synchronous, so a commit the primary
// acknowledges is on the standby already: a failover loses nothing a client
// was told is written. It fails over as an engine does: the primary's
// postmaster killed, the standby promoted.

const BIN = '/usr/lib/postgresql/15/bin';
/** The standby's application_name: the one synchronous_standby_names waits for. */
const STANDBY_NAME = 'standby';

/** The uid and gid PostgreSQL runs as: postgres when we are root, else ourselves. */
function postgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('postgres:'));
  if (!entry) throw new Error('running as root, but there is no user postgres');
  const [, , uid, gid] = entry.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const AS_POSTGRES = { ...postgresUser(), env: { PATH: process.env.PATH } };

/** Runs a PostgreSQL program to its end; fails with its output. */
async function run(program: string, args: string[]): Promise<void> {
  try {
    await promisify(execFile)(join(BIN, program), args, AS_POSTGRES);
  } catch (error) {
    const {
      stdout = '',
      stderr = '',
      message,
    } = error as {
      stdout?: string;
      stderr?: string;
      message: string;
    };
    throw new Error(`${program} failed: ${message}\n${stdout}${stderr}`);
  }
}

/** Runs one statement on `database` at `port`, on a connection of its own. */
export async function query<T = Record<string, unknown>>(
  port: number,
  sql: string,
  database = 'postgres',
): Promise<T[]> {
  const client = new Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database,
    connectionTimeoutMillis: 5000,
  });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Whether `pid` is a live process (a zombie counts as gone). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}

/** Whether a process we started has not ended: Node saw no exit (a PID may have been reused since). */
const running = (child: ChildProcess) =>
  child.exitCode === null && child.signalCode === null;

/** The processes a postmaster started: its backends, WAL sender, checkpointer… */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

interface Cluster {
  dir: string;
  port: number;
  log: string;
}

/**
 * The pair. Every server is recorded as soon as it is spawned, before it
 * is waited on, so that `stop` ends whatever `start` got as far as, also
 * while `start` is still under way (a hook that timed out); after `stop`
 * nothing more is started.
 */
export class StandbyPair {
  private readonly root = mkdtempSync(join(tmpdir(), 'identity-failover-'));
  private readonly primary: Cluster = this.cluster('primary');
  private readonly standby: Cluster = this.cluster('standby');
  private readonly started: ChildProcess[] = [];
  private stopping = false;

  get primaryPort(): number {
    return this.primary.port;
  }

  get standbyPort(): number {
    return this.standby.port;
  }

  /** Both servers running, the standby streaming synchronously. */
  async start(): Promise<void> {
    const { uid, gid } = postgresUser();
    if (uid !== undefined) chownSync(this.root, uid, gid!);
    [this.primary.port, this.standby.port] = [
      await freePort(),
      await freePort(),
    ];
    await run('initdb', [
      '-D',
      this.primary.dir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
      '--no-instructions',
    ]);
    appendFileSync(
      join(this.primary.dir, 'postgresql.conf'),
      [
        '',
        "listen_addresses = '127.0.0.1'",
        `port = ${this.primary.port}`,
        "unix_socket_directories = ''",
        // A cluster that lives for a minute gains nothing from flushing to disk.
        'fsync = off',
        `synchronous_standby_names = '${STANDBY_NAME}'`,
        '',
      ].join('\n'),
    );
    await this.startCluster(this.primary);
    await run('pg_basebackup', [
      // -R writes this connection string, application_name with it, as the
      // standby's primary_conninfo.
      '-d',
      `host=127.0.0.1 port=${this.primary.port} user=postgres application_name=${STANDBY_NAME}`,
      '-D',
      this.standby.dir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    appendFileSync(
      join(this.standby.dir, 'postgresql.conf'),
      [
        // The copy carries the primary's settings; the last one wins.
        `port = ${this.standby.port}`,
        // Once promoted it is alone: waiting for a standby would hold every commit.
        "synchronous_standby_names = ''",
        '',
      ].join('\n'),
    );
    await this.startCluster(this.standby);
    await until(
      async () =>
        (
          await query<{ sync_state: string }>(
            this.primary.port,
            `SELECT sync_state FROM pg_stat_replication
              WHERE application_name = '${STANDBY_NAME}' AND state = 'streaming'`,
          )
        )[0]?.sync_state === 'sync',
      {
        what: 'the standby streaming synchronously',
        context: () => this.log('standby'),
        withinMs: 30_000,
      },
    );
  }

  /** The end of a server's log, for a failure's message. */
  log(which: 'primary' | 'standby'): string {
    return tail(this[which].log);
  }

  /** Whether the standby has replayed everything the primary has written. */
  async caughtUp(): Promise<boolean> {
    const [{ lsn }] = await query<{ lsn: string }>(
      this.primary.port,
      'SELECT pg_current_wal_lsn()::text AS lsn',
    );
    const [{ behind }] = await query<{ behind: boolean }>(
      this.standby.port,
      `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
    );
    return !behind;
  }

  /**
   * Kills the primary's postmaster (SIGKILL, by the PID in postmaster.pid)
   * and waits until it and every process it had started are gone: nothing
   * of the primary answers any more. Once is enough: later calls do nothing.
   */
  async killPrimary(): Promise<void> {
    const [postmaster] = this.started;
    if (!postmaster || !running(postmaster)) return;
    const pid = Number(
      readFileSync(join(this.primary.dir, 'postmaster.pid'), 'utf8').split(
        '\n',
      )[0],
    );
    const children = childrenOf(pid);
    process.kill(pid, 'SIGKILL');
    // Its processes notice the postmaster's death and end by themselves.
    await until(() => ![pid, ...children].some(isAlive), {
      what: "the primary's processes gone",
    });
  }

  /** `pg_ctl promote` on the standby, waiting until it accepts writes. */
  promoteStandby(): Promise<void> {
    return run('pg_ctl', ['promote', '-D', this.standby.dir, '-w', '-t', '30']);
  }

  /** Stops every server started, by its PID, and removes the directory. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const child of this.started) await stopProcess(child);
    rmSync(this.root, { recursive: true, force: true });
  }

  private cluster(name: string): Cluster {
    return {
      dir: join(this.root, name),
      port: 0,
      log: join(this.root, `${name}.log`),
    };
  }

  /** Starts postgres in the cluster's directory and waits until it answers. */
  private async startCluster(cluster: Cluster): Promise<void> {
    if (this.stopping) throw new Error('the pair is being stopped');
    const out = openSync(cluster.log, 'a');
    let child: ChildProcess;
    try {
      child = spawn(join(BIN, 'postgres'), ['-D', cluster.dir], {
        ...AS_POSTGRES,
        stdio: ['ignore', out, out],
      });
    } finally {
      closeSync(out);
    }
    this.started.push(child);
    await until(
      async () => {
        if (!running(child))
          throw new Error(`postgres exited:\n${tail(cluster.log)}`);
        return query(cluster.port, 'SELECT 1').then(
          () => true,
          () => false,
        );
      },
      {
        what: `postgres on port ${cluster.port} answering`,
        context: () => tail(cluster.log),
        withinMs: 30_000,
        everyMs: 50,
      },
    );
  }
}

/** Fast shutdown (SIGINT) by its PID, SIGKILL after 10 s; waits for its processes too. */
async function stopProcess(child: ChildProcess): Promise<void> {
  const { pid } = child;
  if (pid === undefined || !running(child)) return;
  const children = childrenOf(pid);
  process.kill(pid, 'SIGINT');
  await until(() => !isAlive(pid), { withinMs: 10_000, everyMs: 50 }).catch(
    () => process.kill(pid, 'SIGKILL'),
  );
  await until(() => ![pid, ...children].some(isAlive), {
    what: `postgres ${pid} and its processes gone`,
    everyMs: 50,
  });
}
