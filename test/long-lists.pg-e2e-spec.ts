import { createServer, Server } from 'node:http';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamedJson } from '../src/common/pagination';
import { ConsumedTooSlowly } from '../src/database/pulled';
import {
  FriendsRepository,
  HELD_WHOLE,
} from '../src/friends/friends.repository';
import { identity, tenantFile, token } from './support/factories';
import { wholeJson } from './support/lists';
import { databaseUrl, withClient } from './support/postgres-admin';
import { useTenant, useTestApp } from './support/test-app';
import { until } from './support/until';

// PostgreSQL only: there a streamed list holds a connection of the pool
// while its reader reads (on the embedded database it is read whole first).
// A reader that stalls, or leaves, must not keep it: half the pool at most
// holds cursors, and a cursor is let go after DATABASE_QUERY_TIMEOUT_MS.

const FRIENDS = HELD_WHOLE + 300;
const friendId = (n: number) => `f${String(n).padStart(4, '0')}`;
// Some 3 KB of JSON a friend, 2 MB a list: more than a Unix socket's
// buffers take in for a client that does not read (loopback TCP's grow to
// tens of megabytes).
const url = (n: number, size: string) =>
  `https://pictures.example/${n}/${size}/${'p'.repeat(1000)}.jpg`;
const APP = token({ appId: 'crm', scopes: ['identities:read'] });
const ANN = token({ identityId: 'ann' });

const FILE = tenantFile({
  identities: [
    identity('many', {
      friends: Array.from({ length: FRIENDS }, (_, n) => friendId(n)),
    }),
    identity('ann', { displayName: 'Ann' }),
    ...Array.from({ length: FRIENDS }, (_, n) =>
      identity(friendId(n), {
        smallPictures: [url(n, 's')],
        mediumPictures: [url(n, 'm')],
        largePictures: [url(n, 'l')],
      }),
    ),
  ],
  tokens: [APP, ANN],
});

const HOLD_MS = 1_500;

describe('a streamed list and the pool', () => {
  // Two connections: one may hold a cursor, one stays for everything else.
  const t = useTestApp({
    config: {
      databasePoolSize: 2,
      databaseQueryTimeoutMs: HOLD_MS,
      databaseConnectTimeoutMs: 300,
    },
  });
  const tenant = useTenant(t, FILE);
  const path = () => `/${tenant.id}/api/identity/v1/many/friends`;
  let name: string;

  beforeAll(() => {
    name = new URL(
      t.database.description.replace(/^PostgreSQL at /, 'postgresql://'),
    ).pathname.slice(1);
  });

  /** The service's transactions open on the test's database. */
  const openTransactions = () =>
    withClient(async (client) => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid()
            AND state LIKE 'idle in transaction%'`,
        [name],
      );
      return rows[0].n;
    }, databaseUrl(name));

  const streamed = async () =>
    (await t.app.get(FriendsRepository).findFriends(tenant.id, 'many', {}))
      .items as StreamedJson;

  /**
   * The service's app served on a Unix socket too, whose small buffers
   * fill as soon as a client stops reading.
   */
  let unix: { server: Server; path: string };
  beforeAll(async () => {
    const path = join(tmpdir(), `long-lists-${process.pid}.sock`);
    const server = createServer(t.app.getHttpAdapter().getInstance());
    await new Promise<void>((listening) => server.listen(path, listening));
    unix = { server, path };
  });
  afterAll(async () => {
    unix.server.closeAllConnections();
    await new Promise((closed) => unix.server.close(closed));
  });

  /** A client that sends the request and reads only the first bytes of the answer. */
  async function stalledReader(): Promise<Socket> {
    const socket = connect(unix.path);
    socket.write(
      `GET ${path()} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tenant.token(APP.token)}\r\n\r\n`,
    );
    await new Promise<void>((begun) =>
      socket.once('data', () => {
        socket.pause();
        begun();
      }),
    );
    return socket;
  }

  it('lets other statements run while one holds a cursor, and fails a second cursor in time (503)', async () => {
    const held = await streamed();
    await held.pieces.next();
    expect(await openTransactions()).toBe(1);
    const res = await t
      .as(tenant.token(ANN.token))
      .get(`/${tenant.id}/api/identity/v1`);
    expect([res.status, res.body.identityId]).toStrictEqual([200, 'ann']);
    const busy = await t.as(tenant.token(APP.token)).get(path());
    expect([busy.status, busy.headers['retry-after'], busy.body]).toStrictEqual(
      [
        503,
        '5',
        {
          type: 'urn:problem:identity:database-unavailable',
          title: 'Service unavailable',
          status: 503,
          detail: 'The database cannot be reached; retry shortly.',
          instance: path(),
        },
      ],
    );
    await held.pieces.return();
    expect(await openTransactions()).toBe(0);
    // Pieces of 16 KB (some five entries here): the same JSON as a page.
    const whole = await t.as(tenant.token(APP.token)).get(path()).expect(200);
    const page = await t
      .as(tenant.token(APP.token))
      .get(`${path()}?limit=1000`)
      .expect(200);
    expect(whole.text).toBe(page.text);
    expect(whole.text).toBe(await wholeJson(await streamed()));
  });

  it('lets go of a cursor read no further after DATABASE_QUERY_TIMEOUT_MS', async () => {
    const held = await streamed();
    await held.pieces.next();
    await until(async () => (await openTransactions()) === 0, {
      what: 'the cursor let go',
      withinMs: HOLD_MS * 4,
    });
    // The rest of the last read's pieces (four a read) are in hand; the
    // read after them fails.
    const readOn = async () => {
      for (let n = 0; n < 4; n++) await held.pieces.next();
    };
    await expect(readOn()).rejects.toThrow(
      new ConsumedTooSlowly(HOLD_MS).message,
    );
    await t.as(tenant.token(APP.token)).get(path()).expect(200);
  });

  it('cuts off a client that stops reading, and frees its cursor', async () => {
    const logs = t.recordLogs();
    const socket = await stalledReader();
    try {
      await until(async () => (await openTransactions()) === 1, {
        what: 'the cursor held',
        withinMs: HOLD_MS / 2,
      });
      await until(async () => (await openTransactions()) === 0, {
        what: 'the cursor let go',
        withinMs: HOLD_MS * 4,
      });
      // Read now, the answer ends before its last chunk: it was cut off.
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      const closed = new Promise<void>((done) => socket.once('close', done));
      socket.resume();
      await closed;
      const received = Buffer.concat(chunks).toString();
      expect(received.length).toBeGreaterThan(0);
      expect(received.endsWith('\r\n0\r\n\r\n')).toBe(false);
      await until(() => logs.some((l) => l.level === 'warn'), {
        what: 'the log line',
      });
      expect(logs.filter((l) => l.level === 'warn')).toStrictEqual([
        {
          level: 'warn',
          message: expect.stringMatching(
            /^A streamed answer broke off: Not read (for|to the end within) 1500 ms$/,
          ),
        },
      ]);
    } finally {
      socket.destroy();
    }
    await t.as(tenant.token(APP.token)).get(path()).expect(200);
  });

  it('frees the cursor of a client that leaves before the end', async () => {
    const socket = await stalledReader();
    await until(async () => (await openTransactions()) === 1, {
      what: 'the cursor held',
      withinMs: HOLD_MS / 2,
    });
    socket.destroy();
    await until(async () => (await openTransactions()) === 0, {
      what: 'the cursor let go',
      withinMs: HOLD_MS / 2,
    });
    await t.as(tenant.token(APP.token)).get(path()).expect(200);
  });
});
