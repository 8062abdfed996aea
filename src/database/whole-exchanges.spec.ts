import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { wholeExchanges } from './whole-exchanges';

// Clients of the socket server share PGlite's one session. A statement with
// a large parameter arrives in several reads: between them, the server used
// to run other clients' messages, whose Parse replaced its unnamed statement.
const LARGE = 'x'.repeat(300_000);

/** Statements of 1 to 6 parameters and one with a large one, each with its answer. */
const STATEMENTS = [
  ...[1, 2, 3, 4, 5, 6].map((count) => {
    const values = Array.from({ length: count }, (_, i) => i + 1);
    return {
      text: `SELECT ${values.map((_, i) => `$${i + 1}::int`).join(' + ')} AS n`,
      values: values as unknown[],
      n: (count * (count + 1)) / 2,
    };
  }),
  {
    text: 'SELECT length($1::text) + $2::int AS n',
    values: [LARGE, 1],
    n: 300_001,
  },
];

describe('wholeExchanges', () => {
  const dir = mkdtempSync(join(tmpdir(), 'whole-exchanges-'));
  let db: PGlite;
  let server: PGLiteSocketServer;
  const client = async () => {
    const c = new Client({
      host: dir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
    });
    await c.connect();
    return c;
  };

  beforeAll(async () => {
    db = await PGlite.create();
    server = new PGLiteSocketServer({
      db: wholeExchanges(db),
      path: join(dir, '.s.PGSQL.5432'),
      maxConnections: 8,
    });
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives every client its own statement's answer, whatever the others send", async () => {
    /** Runs `rounds` statements from `pick`, and returns the answers that were wrong. */
    const run = async (pick: (round: number) => number, rounds: number) => {
      const c = await client();
      const wrong: unknown[] = [];
      for (let round = 0; round < rounds; round++) {
        const { text, values, n } = STATEMENTS[pick(round)];
        const answer = await c.query(text, values).then(
          (result) => result.rows[0].n,
          (error: Error) => error.message.slice(0, 100),
        );
        if (answer !== n) wrong.push({ text, answer });
      }
      await c.end();
      return wrong;
    };
    const wrong = await Promise.all([
      run((round) => round % 6, 120),
      run((round) => (round + 1) % 6, 120),
      run((round) => (round + 2) % 6, 120),
      run(() => 6, 40),
    ]);
    expect(wrong).toStrictEqual([[], [], [], []]);
  });

  it('serves the others when a client leaves in the middle of a failed exchange', async () => {
    const other = await client();
    // The backend skips every message after an error up to a Sync: this
    // client's, unless the exchange its predecessor left open is ended.
    await leaveAfterParse(dir, 'SELEC 1');
    const answer = await other.query('SELECT $1::int + $2::int AS n', [2, 3]);
    expect(answer.rows).toStrictEqual([{ n: 5 }]);
    await other.end();
  });
});

/** Starts a session, sends a Parse and no Sync, waits for the answer and hangs up. */
function leaveAfterParse(dir: string, statement: string): Promise<void> {
  const frame = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeInt32BE(body.length + 4);
    return Buffer.concat([Buffer.from(type), length, body]);
  };
  const startup = frame(
    '',
    Buffer.from('\0\x03\0\0user\0postgres\0database\0postgres\0\0', 'latin1'),
  );
  const parse = frame('P', Buffer.from(`\0${statement}\0\0\0`, 'latin1'));
  return new Promise((done, fail) => {
    const socket = connect(join(dir, '.s.PGSQL.5432'));
    let started = false;
    socket.on('error', fail);
    socket.on('data', (data) => {
      if (started) socket.end(() => done());
      else if (data.toString('latin1').endsWith('Z\0\0\0\x05I')) {
        started = true;
        socket.write(parse);
      }
    });
    socket.write(startup);
  });
}
