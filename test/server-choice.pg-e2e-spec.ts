import { ChosenPool } from '../src/database/chosen-pool';
import { parseConnectionString } from '../src/database/connection-string';
import { NoServerFits, ServerChoice } from '../src/database/server-choice';
import { freePort } from './support/free-port';
import { ADMIN_URL } from './support/postgres-admin';
import { TcpProxy } from './support/tcp-proxy';
import { until } from './support/until';

// Which server of a connection string the pools connect to, against the
// test server: libpq's order and target_session_attrs, a session made
// read-only by its options (a standby is what test/failover.pg-e2e-spec.ts
// starts), TLS preferred and refused, and a pool following its server's loss
// to the next one. A failover as a client sees it is in that other file.

const admin = new URL(ADMIN_URL);
const SERVER = `${admin.hostname}:${admin.port || 5432}`;
const READ_ONLY = 'options=-c%20default_transaction_read_only%3Don';

const choiceOf = (url: string) =>
  new ServerChoice(parseConnectionString(url), 2000);

describe('the choice of a server among a connection string’s hosts', () => {
  let closed: number;
  beforeAll(async () => {
    closed = await freePort();
  });

  it('takes the first server that accepts a connection, in the order given', async () => {
    const choice = choiceOf(
      `postgresql://postgres@127.0.0.1:${closed},${SERVER}/postgres`,
    );
    const chosen = await choice.choose();
    expect(chosen.server).toStrictEqual({
      host: admin.hostname,
      port: Number(admin.port || 5432),
    });
    expect(chosen.generation).toBe(1);
    expect(choice.changes).toBe(0);
  });

  it.each([
    ['read-write', false],
    ['read-only', true],
    ['primary', true],
    ['standby', false],
    ['prefer-standby', true],
    ['any', true],
  ])(
    'with target_session_attrs=%s, a read-only session on a primary fits: %s',
    async (attrs, fits) => {
      const choice = choiceOf(
        `postgresql://postgres@${SERVER}/postgres?target_session_attrs=${attrs}&${READ_ONLY}`,
      );
      if (fits) await expect(choice.choose()).resolves.toBeDefined();
      else
        await expect(choice.choose()).rejects.toThrow(
          new NoServerFits(
            `No server of ${SERVER}/postgres is ${attrs}: ${SERVER} is read-only`,
            [],
          ),
        );
    },
  );

  it('says why each server was passed over when none fits', async () => {
    const choice = choiceOf(
      `postgresql://postgres@127.0.0.1:${closed},${SERVER}/postgres?target_session_attrs=standby`,
    );
    const failure = await choice.choose().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NoServerFits);
    expect((failure as NoServerFits).code).toBe('08001');
    expect((failure as Error).message).toBe(
      `No server of 127.0.0.1:${closed},${SERVER}/postgres is standby: 127.0.0.1:${closed}: connect ECONNREFUSED 127.0.0.1:${closed}; ${SERVER} is read-write`,
    );
    expect(
      (failure as NoServerFits).errors.map((e) => (e as { code: string }).code),
    ).toStrictEqual(['ECONNREFUSED']);
  });

  it('with sslmode=prefer, connects in plain text to a server that refuses TLS', async () => {
    const choice = choiceOf(
      `postgresql://postgres@${SERVER}/postgres?sslmode=prefer`,
    );
    const chosen = await choice.choose();
    expect(chosen.config.ssl).toBe(false);
  });

  it('with sslmode=require, refuses a server that refuses TLS', async () => {
    const choice = choiceOf(
      `postgresql://postgres@${SERVER}/postgres?sslmode=require`,
    );
    await expect(choice.choose()).rejects.toThrow(
      `No server of ${SERVER}/postgres is any: ${SERVER}: The server does not support SSL connections`,
    );
  });
});

describe('a pool on the chosen server', () => {
  const first = new TcpProxy(admin.hostname, Number(admin.port || 5432));
  const second = new TcpProxy(admin.hostname, Number(admin.port || 5432));
  beforeAll(async () => {
    await first.start();
    await second.start();
  });
  afterAll(async () => {
    await first.stop();
    await second.stop();
  });

  it('moves to the next server when its own goes away, without failing a query that starts after', async () => {
    const choice = choiceOf(
      `postgresql://postgres@127.0.0.1:${first.port},127.0.0.1:${second.port}/postgres?target_session_attrs=read-write`,
    );
    const pool = new ChosenPool(choice, { max: 4 });
    pool.on('error', () => undefined);
    try {
      await Promise.all(
        [1, 2, 3].map(() => pool.query('SELECT pg_sleep(0.05)')),
      );
      expect(choice.current?.server.port).toBe(first.port);
      expect(pool.totalCount).toBe(3);

      first.cut();
      // The broken connections leave the pool as their sockets close.
      await until(() => pool.totalCount === 0, { what: 'the pool emptied' });
      const { rows } = await pool.query('SELECT 1 AS one');
      expect(rows).toStrictEqual([{ one: 1 }]);
      expect(choice.current?.server.port).toBe(second.port);
      expect(choice.changes).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it('closes the connections made under an earlier choice instead of lending them', async () => {
    first.restore();
    const choice = choiceOf(
      `postgresql://postgres@127.0.0.1:${first.port},127.0.0.1:${second.port}/postgres`,
    );
    const pool = new ChosenPool(choice, { max: 4 });
    try {
      await Promise.all([1, 2].map(() => pool.query('SELECT 1')));
      expect(pool.idleCount).toBe(2);
      const before = choice.current!.generation;
      choice.forgetCurrent();
      await pool.query('SELECT 1');
      expect(choice.current!.generation).toBe(before + 1);
      // Both earlier connections closed; the one used is new.
      expect(pool.totalCount).toBe(1);
      expect(choice.changes).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
