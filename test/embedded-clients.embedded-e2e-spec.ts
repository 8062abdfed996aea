import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { directoryOwner } from '../src/database/data-directory-lock';
import { Server, serverEnvironment, startServer } from './support/server';

// The service and every command beside it share the embedded database's one
// session over its socket, each sending its statements as Parse, Bind,
// Describe, Execute and Sync on the unnamed statement. Were two clients'
// messages to interleave, one would bind another's statement (08P01 "bind
// message supplies 4 parameters, but prepared statement "" requires 5"),
// read another's rows, or wait for an answer that never comes. A statement
// with a large parameter reaches the database in several reads: the widest
// gap for another client's messages.
const ROOT = resolve(__dirname, '..');
const EXAMPLE = join(ROOT, 'test', 'fixtures', 'example-tenant.json');
const LARGE = 'x'.repeat(300_000);
const LARGE_ROUNDS = 25;
const MAX_ROUNDS = 1000;

/** Statements of 1 to 6 parameters and one with a large one, each with its answer. */
const STATEMENTS = [
  ...[1, 2, 3, 4, 5, 6].map((count) => {
    const values = Array.from({ length: count }, (_, i) => i + count);
    return {
      text: `SELECT ${values.map((_, i) => `$${i + 1}::int`).join(' + ')} AS n`,
      values: values as unknown[],
      n: values.reduce((a, b) => a + b, 0),
    };
  }),
  {
    text: 'SELECT length($1::text) - $2::int AS n',
    values: [LARGE, 7],
    n: 299_993,
  },
];

describe('clients sharing the embedded database', () => {
  const dataDir = join(
    mkdtempSync(join(tmpdir(), 'identity-embedded-')),
    'data',
  );
  const env = serverEnvironment({}, dataDir);
  let server: Server;

  /** A command of the command line, with its exit code and what it wrote to stderr. */
  const command = (...args: string[]) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), ...args],
      {
        env: { PATH: process.env.PATH, DATA_DIR: dataDir },
      },
    );
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    return new Promise<{ code: number | null; err: string }>((done) =>
      child.once('exit', (code) =>
        done({ code, err: err.replace(/^Database: .*\n/, '').slice(0, 300) }),
      ),
    );
  };

  /**
   * A `pg` client on the database's socket, sending the statements `pick`
   * chooses until `done` (at most MAX_ROUNDS): the answers that were wrong.
   */
  async function statements(
    pick: (round: number) => number,
    done: (round: number) => boolean,
  ) {
    const client = new Client({
      host: directoryOwner(resolve(dataDir))!.socketDir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
    });
    await client.connect();
    const wrong: unknown[] = [];
    for (let round = 0; !done(round) && round < MAX_ROUNDS; round++) {
      const { text, values, n } = STATEMENTS[pick(round)];
      const answer = await client.query(text, values).then(
        (result) => result.rows[0].n,
        (error: Error) => error.message.slice(0, 100),
      );
      if (answer !== n) wrong.push({ text, answer });
    }
    await client.end();
    return wrong;
  }

  /** The service's own statements, through its API: the answers that were wrong. */
  async function reads(rounds: number) {
    const wrong: unknown[] = [];
    for (let round = 0; round < rounds; round++) {
      const res = await fetch(
        `http://localhost:${env.PORT}/demo/api/identity/v1`,
        {
          headers: { Authorization: 'Bearer demo-zoe-access-token' },
        },
      );
      const body = await res.text();
      if (res.status !== 200 || JSON.parse(body).identityId !== 'zoe')
        wrong.push({ status: res.status, body: body.slice(0, 200) });
    }
    return wrong;
  }

  async function commands() {
    const ran = [command('import', EXAMPLE)];
    for (let i = 0; i < 4; i++)
      ran.push(
        command('token', 'create', '--tenant', 'demo', '--identity', 'bob'),
      );
    return Promise.all(ran);
  }

  beforeAll(async () => {
    server = await startServer(env);
  });
  afterAll(() => server.stop());

  it('never mixes their messages: each gets the answers to its own statements', async () => {
    const follower: ChildProcess = spawn(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), 'events', '--tenant', 'demo', '--follow'],
      { env: { PATH: process.env.PATH, DATA_DIR: dataDir } },
    );
    let followed = '';
    follower.stderr!.on('data', (chunk) => (followed += chunk));
    try {
      // The small statements go on as long as the large ones do.
      let largeDone = false;
      const untilLarge = () => largeDone;
      const [small, other, large, service, ran] = await Promise.all([
        statements((round) => round % 6, untilLarge),
        statements((round) => (round + 3) % 6, untilLarge),
        statements(
          () => 6,
          (round) => (largeDone = round === LARGE_ROUNDS),
        ),
        reads(30),
        commands(),
      ]);
      expect({ small, other, large, service }).toStrictEqual({
        small: [],
        other: [],
        large: [],
        service: [],
      });
      expect(ran).toStrictEqual(ran.map(() => ({ code: 0, err: '' })));
      expect([
        follower.exitCode,
        followed.replace(/^Database: .*\n/, ''),
      ]).toStrictEqual([null, '']);
    } finally {
      follower.kill('SIGTERM');
    }
  }, 180_000);
});
