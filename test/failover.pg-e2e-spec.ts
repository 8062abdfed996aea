import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrate } from '../src/database/migrator';
import { identity, tenantFile, token } from './support/factories';
import { standIn } from './support/lifecycle';
import { sqlSession, withClient } from './support/postgres-admin';
import { problemBody } from './support/problem';
import { type Server, serverEnvironment, startServer } from './support/server';
import { query, StandbyPair } from './support/standby-pair';
import { until } from './support/until';

// The built service on a PostgreSQL primary with a synchronous streaming
// standby, failed over as an engine does it: the primary's postmaster
// killed (SIGKILL), the standby promoted a moment later. The service is
// given both servers, the standby first, and must find the primary itself,
// before and after. What a client sees: 503 database-unavailable while
// there is no primary, then every write it was told was done, and the
// versions it holds, on the new primary. The tests of a block run in
// order, each the next step of the failover.

const ROOT = resolve(__dirname, '..');
const DATABASE = 'identity';
/** The request time limit and the connection attempt's, short. */
const REQUEST_LIMIT_MS = 2000;
/**
 * A refusal comes, it does not hang: within a connection attempt to each of
 * the two servers and a second for the rest, on a loaded machine too (the
 * client gives up at 10 s, which would fail the test anyway).
 */
const REFUSAL_WITHIN_MS = 2 * REQUEST_LIMIT_MS + 1000;
const SETTINGS = {
  SEED_DEMO: 'false',
  RATE_LIMIT: '1000000',
  HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_LIMIT_MS),
  DATABASE_CONNECT_TIMEOUT_MS: String(REQUEST_LIMIT_MS),
};

/** Busy people write across the kill; quiet ones only before it; the probe tells when writes are back. */
const BUSY = ['bea', 'bo', 'bill'];
const QUIET = ['quinn', 'quentin'];
const PROBE = 'pat';
const PEOPLE = [...BUSY, ...QUIET, PROBE];
const OWN = Object.fromEntries(
  PEOPLE.map((id) => [id, token({ identityId: id })]),
);
const FILE = tenantFile({
  identities: PEOPLE.map((id) => identity(id, { displayName: id })),
  tokens: Object.values(OWN),
});
const API = `/${FILE.tenant.id}/api/identity/v1`;

const DATABASE_UNAVAILABLE = problemBody(
  503,
  'database-unavailable',
  'The database cannot be reached; retry shortly.',
  API,
);

/** A PostgreSQL URL of the database on these ports, in this order, choosing by `attrs`. */
const url = (ports: number[], attrs: string) =>
  `postgresql://postgres@${ports.map((p) => `127.0.0.1:${p}`).join(',')}/${DATABASE}?target_session_attrs=${attrs}`;

/** The same as a key/value connection string. */
const keyValue = (ports: number[], attrs: string) =>
  `host=${ports.map(() => '127.0.0.1').join(',')} port=${ports.join(',')} dbname=${DATABASE} user=postgres target_session_attrs=${attrs}`;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  ms: number;
}

/**
 * A new pair with the tenant imported through the primary's own URL, and
 * the built service on it, configured by `env` from the pair's ports, for
 * the tests of a describe block. After them the service is stopped, then
 * both servers, whatever happened: also what a set-up that timed out had
 * started, and what it goes on to start.
 */
function useServiceOnPair(env: (pair: StandbyPair) => NodeJS.ProcessEnv) {
  let pair: StandbyPair | undefined;
  let server: Server | undefined;
  let base = '';
  let closing = false;
  beforeAll(async () => {
    pair = new StandbyPair();
    await pair.start();
    await query(pair.primaryPort, `CREATE DATABASE ${DATABASE}`);
    const primary = url([pair.primaryPort], 'any');
    await withClient((c) => migrate(sqlSession(c)), primary);
    const dir = mkdtempSync(join(tmpdir(), 'identity-failover-'));
    writeFileSync(join(dir, 't.json'), JSON.stringify(FILE));
    const imported = cli(
      { DATABASE_URL: primary },
      'import',
      join(dir, 't.json'),
    );
    rmSync(dir, { recursive: true });
    expect(imported).toMatchObject({ code: 0 });
    if (closing) return;
    const own = env(pair);
    const settings = serverEnvironment({ databaseUrl: own.DATABASE_URL }, '', {
      ...SETTINGS,
      ...own,
    });
    server = await startServer(settings);
    base = `http://localhost:${settings.PORT}`;
    if (closing) await stopServer(server);
  });
  afterAll(async () => {
    closing = true;
    if (server) await stopServer(server);
    await pair?.stop();
  });
  return standIn(
    'the service on a standby pair',
    () => server && pair && { pair, server, base },
  );
}

/** SIGTERM, and SIGKILL when shutting down takes more than 5 s. */
async function stopServer(server: Server): Promise<void> {
  const timer = setTimeout(() => void server.kill(), 5000);
  await server.stop();
  clearTimeout(timer);
}

/** The built command line with `env`: its exit code and output, the line naming the database left out. */
function cli(env: NodeJS.ProcessEnv, ...args: string[]) {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'dist', 'cli.js'), ...args],
    {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
      cwd: ROOT,
    },
  );
  return {
    code: r.status,
    out: r.stdout,
    err: r.stderr.replace(/^Database: .*\n/, ''),
  };
}

async function send(
  base: string,
  method: string,
  path: string,
  {
    who,
    body,
    headers = {},
  }: { who?: string; body?: object; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(who && { Authorization: `Bearer ${OWN[who].token}` }),
      ...(body && { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body && JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  const json = /json/.test(res.headers.get('content-type') ?? '');
  return {
    status: res.status,
    headers: res.headers,
    body: json ? JSON.parse(text) : text,
    ms: Date.now() - started,
  };
}

/** The sum of a metric's samples in a scrape; undefined when it has none. */
function metric(scrape: string, name: string): number | undefined {
  const samples = scrape
    .split('\n')
    .filter(
      (line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`),
    );
  return samples.length
    ? samples.reduce((sum, line) => sum + Number(line.split(' ').pop()), 0)
    : undefined;
}

/** A write the service answered 200: its body and ETag. */
interface Acknowledged {
  body: Record<string, unknown>;
  etag: string;
}

/** Asserts the exact 503 a client gets while there is no primary. */
function expectDatabaseUnavailable(res: Answer) {
  expect({
    status: res.status,
    contentType: res.headers.get('content-type'),
    retryAfter: res.headers.get('retry-after'),
    body: res.body,
  }).toStrictEqual({
    status: 503,
    contentType: 'application/problem+json',
    retryAfter: '5',
    body: DATABASE_UNAVAILABLE,
  });
  expect(res.ms).toBeLessThan(REFUSAL_WITHIN_MS);
}

describe('a failover of the primary, the standby listed first', () => {
  const s = useServiceOnPair((pair) => ({
    DATABASE_URL: url([pair.standbyPort, pair.primaryPort], 'read-write'),
  }));
  /** The last acknowledged write of each person. */
  const acknowledged = new Map<string, Acknowledged>();
  /** Each busy person's writes sent after their last acknowledged one, unanswered or refused. */
  const unanswered = new Map<string, string[]>();
  /** The tenant's name as the command line wrote it. */
  let tenantName = '';
  const kvUrl = () =>
    keyValue([s.pair.standbyPort, s.pair.primaryPort], 'read-write');
  const put = async (who: string, displayName: string, headers = {}) => {
    const res = await send(s.base, 'PUT', API, {
      who,
      body: { displayName },
      headers,
    });
    if (res.status === 200)
      acknowledged.set(who, { body: res.body, etag: res.headers.get('etag')! });
    return res;
  };
  const context = () => `--- service ---\n${s.server.output().slice(-3000)}`;

  it('reads and writes on the primary before the failover', async () => {
    const read = await send(s.base, 'GET', API, { who: PROBE });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ identityId: PROBE, displayName: PROBE });
    for (let round = 0; round < 3; round++)
      for (const who of PEOPLE) {
        const res = await put(who, `${who} before ${round}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
      }
    for (const who of PEOPLE) {
      const now = await send(s.base, 'GET', API, { who });
      expect(now.status).toBe(200);
      expect(now.body).toStrictEqual(acknowledged.get(who)!.body);
    }
    const scrape = await send(s.base, 'GET', '/metrics');
    expect(metric(scrape.body, 'db_primary_changes_total')).toBe(0);
    expect((await send(s.base, 'GET', '/health/ready')).status).toBe(200);
  });

  it('lets the command line write to the primary through a key/value string naming the standby first', () => {
    tenantName = 'Renamed by the command line';
    const set = cli(
      { DATABASE_URL: kvUrl() },
      'tenant',
      'set',
      '--tenant',
      FILE.tenant.id,
      '--name',
      tenantName,
    );
    expect({ code: set.code, err: set.err }).toStrictEqual({
      code: 0,
      err: '',
    });
    expect(JSON.parse(set.out)).toMatchObject({ name: tenantName });
  });

  it('answers 503 database-unavailable, never 500, while there is no primary', async () => {
    let killed = false;
    const answers: Answer[] = [];
    /** Writes until one sent after the kill is refused (or 3 s after it, should none be); resolves with that answer. */
    const writeAcross = async (who: string) => {
      for (let n = 0; ; n++) {
        const after = killed;
        const displayName = `${who} across ${n}`;
        unanswered.set(who, [...(unanswered.get(who) ?? []), displayName]);
        const res = await put(who, displayName);
        answers.push(res);
        if (res.status === 200) unanswered.set(who, []);
        if (after && (res.status !== 200 || Date.now() - killedAt > 3000))
          return res;
      }
    };
    let killedAt = 0;
    const writers = BUSY.map(writeAcross);
    await until(() => answers.length >= 3 * BUSY.length, {
      what: 'writes under way',
    });
    await s.pair.killPrimary();
    killed = true;
    killedAt = Date.now();
    const afterKill = await Promise.all(writers);
    expect(afterKill.map((res) => res.status)).toStrictEqual(
      BUSY.map(() => 503),
    );
    for (const res of answers)
      if (res.status !== 200) expectDatabaseUnavailable(res);

    expectDatabaseUnavailable(await put(QUIET[0], 'never written'));
    const ready = await send(s.base, 'GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status: 'error',
      error: { database: { status: 'down' } },
    });
    expect((await send(s.base, 'GET', '/health/live')).status).toBe(200);
    const scrape = await send(s.base, 'GET', '/metrics');
    expect(
      metric(scrape.body, 'db_writes_failed_total'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('writes again soon after the promotion, and has every acknowledged write', async () => {
    await s.pair.killPrimary();
    await s.pair.promoteStandby();
    let attempt = 0;
    await until(
      async () =>
        (await put(PROBE, `${PROBE} after ${++attempt}`)).status === 200,
      {
        what: 'a PUT answered 200 after the promotion',
        withinMs: 5000,
        everyMs: 100,
        context,
      },
    );
    const probe = await send(s.base, 'GET', API, { who: PROBE });
    expect(probe.body).toStrictEqual(acknowledged.get(PROBE)!.body);

    for (const who of BUSY) {
      const now = await send(s.base, 'GET', API, { who });
      expect(now.status).toBe(200);
      // A write answered 503 may have committed all the same; never one older than acknowledged.
      expect([
        acknowledged.get(who)!.body.displayName,
        ...unanswered.get(who)!,
      ]).toContain(now.body.displayName);
    }
    for (const who of QUIET) {
      const now = await send(s.base, 'GET', API, { who });
      expect(now.body).toStrictEqual(acknowledged.get(who)!.body);
    }
    // The version each holds is current: a lost write would make it a 412.
    const conditional = [];
    for (const who of QUIET) {
      const { etag } = acknowledged.get(who)!;
      const res = await put(who, `${who} after`, { 'If-Match': etag });
      conditional.push({ who, status: res.status });
    }
    expect(conditional).toStrictEqual(
      QUIET.map((who) => ({ who, status: 200 })),
    );
    const shown = cli(
      { DATABASE_URL: kvUrl() },
      'tenant',
      'show',
      '--tenant',
      FILE.tenant.id,
    );
    expect({ code: shown.code, err: shown.err }).toStrictEqual({
      code: 0,
      err: '',
    });
    expect(JSON.parse(shown.out)).toMatchObject({ name: tenantName });

    const scrape = await send(s.base, 'GET', '/metrics');
    expect(metric(scrape.body, 'db_primary_changes_total')).toBe(1);
    expect((await send(s.base, 'GET', '/health/ready')).status).toBe(200);
  });
});

describe('a failover of the primary, with the standby as the replica and a key/value DATABASE_URL', () => {
  const s = useServiceOnPair((pair) => ({
    DATABASE_URL: keyValue([pair.standbyPort, pair.primaryPort], 'read-write'),
    DATABASE_REPLICA_URL: url([pair.standbyPort], 'standby'),
  }));

  it('answers GETs from the standby, and is ready but degraded, while there is no primary', async () => {
    const written = await send(s.base, 'PUT', API, {
      who: PROBE,
      body: { displayName: 'Pat, last written' },
    });
    expect(written.status).toBe(200);
    const last = { body: written.body, etag: written.headers.get('etag') };
    await until(() => s.pair.caughtUp(), { what: 'the standby caught up' });
    // The service's own view of the standby (polled) has caught up with the
    // write too: the tenant's reads go to the standby again.
    const fromStandby = async () =>
      metric(
        (await send(s.base, 'GET', '/metrics')).body,
        'db_reads_total{target="replica"}',
      ) ?? 0;
    await until(
      async () => {
        const before = await fromStandby();
        await send(s.base, 'GET', API, { who: PROBE });
        return (await fromStandby()) > before;
      },
      { what: 'a read of the tenant from the standby' },
    );
    await s.pair.killPrimary();

    for (let n = 0; n < 5; n++) {
      const read = await send(s.base, 'GET', API, { who: PROBE });
      expect({
        status: read.status,
        body: read.body,
        etag: read.headers.get('etag'),
      }).toStrictEqual({
        status: 200,
        body: last.body,
        etag: last.etag,
      });
    }
    // Ready, degraded, once its poll of the primary has found it gone.
    let ready: Answer | undefined;
    await until(
      async () =>
        (ready = await send(s.base, 'GET', '/health/ready')).status === 200,
      { what: 'ready without a primary' },
    );
    expect(ready?.body).toMatchObject({ status: 'degraded' });
    expectDatabaseUnavailable(
      await send(s.base, 'PUT', API, {
        who: PROBE,
        body: { displayName: 'Pat, refused' },
      }),
    );
  });
});
