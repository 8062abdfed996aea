import Redis from 'ioredis';
import { AppConfig } from '../src/config/app-config';
import { API, bearer, example, TOKENS } from './support/example';
import { tenantFile, token } from './support/factories';
import { AUDIENCE, useLocalIssuer } from './support/local-issuer';
import { withClient } from './support/postgres-admin';
import { standIn } from './support/lifecycle';
import {
  startTestApp,
  TestApp,
  TestAppOptions,
  withTestApp,
} from './support/test-app';
import { until } from './support/until';
import { freePort } from './support/free-port';

// Reads from replicas, seen from a client. The "replica" is a database of
// its own on the test server with the example tenant imported under
// different display names (so an answer tells where it was read), and a
// pg_last_wal_replay_lsn() of its own in front of PostgreSQL's (its
// connections put schema public first) that reports the position the test
// sets: a standby that has replayed exactly as far as the test says.
// The real thing (a streaming standby, PgBouncer, two processes) is what
// `npm run topology -- test` runs.

const REPLICA_NAME = 'Ada (as the replica has it)';

/** The example tenant with ada's display name as the replica shows it. */
function replicaTenant() {
  const file = example();
  file.identities.find(
    (i: { identityId: string }) => i.identityId === 'ada',
  ).displayName = REPLICA_NAME;
  return file;
}

/** A replica URL whose sessions find the test's replay position first. */
function replicaUrl(app: TestApp): string {
  const url = new URL(app.app.get(AppConfig).databaseUrl!);
  url.searchParams.set('options', '-c search_path=public,pg_catalog');
  return url.toString();
}

async function fakeStandby(app: TestApp) {
  await app.database.withSession((s) =>
    s.exec(`
      CREATE TABLE replay_position (lsn pg_lsn NOT NULL);
      INSERT INTO replay_position VALUES ('0/0');
      CREATE FUNCTION public.pg_last_wal_replay_lsn() RETURNS pg_lsn
        LANGUAGE sql AS 'SELECT lsn FROM replay_position';`),
  );
}

/** The server's WAL position now: a replica at it has replayed every commit so far. */
const walNow = () =>
  withClient(async (c) => {
    const { rows } = await c.query<{ lsn: string }>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    );
    return rows[0].lsn;
  });

/** Moves the WAL on (a write elsewhere on the server, as other clients make). */
const moveWalOn = () =>
  withClient((c) =>
    c.query(
      'CREATE TEMP TABLE wal_mover AS SELECT 1 AS n; DROP TABLE wal_mover',
    ),
  );

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The "replica" (with the tenants `replicaTenants` gives, behind a fake
 * standby) and the instances of the service reading from it, for the tests
 * of a describe block: started in this order before them, each instance
 * with the options its function makes of the replica's URL and of the
 * instances before it; closed after them, the last started first.
 */
function useReplicaSet(
  replicaTenants: () => object[],
  ...instances: ((replicaUrl: string, started: TestApp[]) => TestAppOptions)[]
): TestApp[] {
  const apps: TestApp[] = [];
  beforeAll(async () => {
    const replica = await startTestApp({ tenants: replicaTenants() });
    apps.push(replica);
    await fakeStandby(replica);
    for (const options of instances)
      apps.push(await startTestApp(options(replicaUrl(replica), apps)));
  });
  afterAll(async () => {
    for (const app of apps.splice(0).reverse()) await app.close();
  });
  return [replicaTenants, ...instances].map((_, i) =>
    standIn(i ? `instance ${i}` : 'the replica', () => apps[i]),
  );
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** Forgets the position of the tenant's last write that instances share through Redis. */
async function forgetWritePosition(tenantId: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  await redis.del(`identity:written:${tenantId}`);
  redis.disconnect();
}

/** The second instance of the same primary database as the first. */
const secondInstance =
  (shared: (replicaUrl: string) => Partial<AppConfig>) =>
  (replicaUrl: string, [, first]: TestApp[]): TestAppOptions => ({
    config: {
      ...shared(replicaUrl),
      databaseUrl: first.app.get(AppConfig).databaseUrl,
    },
  });

describe('reads from a replica', () => {
  const [replica, t] = useReplicaSet(
    () => [replicaTenant()],
    (replicaUrl) => ({
      tenants: [example()],
      config: {
        databaseReplicaUrls: [replicaUrl],
        // The test server's WAL moves with every other test: a bound this
        // long keeps the replica readable whatever they do.
        databaseReplicaMaxLagMs: 600_000,
      },
    }),
  );
  /** Sets how far the replica has replayed, and waits for the service's next polls. */
  const replayed = async (lsn: string) => {
    await replica.database.withSession((s) =>
      s.query('UPDATE replay_position SET lsn = $1', [lsn]),
    );
    await sleep(300);
  };
  const displayName = async (app: TestApp, headers: object = {}) => {
    const res = await app
      .http()
      .get(API)
      .set({ ...bearer(TOKENS.ada), ...headers })
      .expect(200);
    return res.body.displayName as string;
  };
  const metric = async (app: TestApp, name: string) => {
    const res = await app.http().get('/metrics').expect(200);
    return res.text.split('\n').filter((line) => line.startsWith(name));
  };

  it('answers a GET from the replica once it has caught up, and counts where reads went', async () => {
    expect(await displayName(t)).toBe('Ada Lovelace');
    await replayed(await walNow());
    expect(await displayName(t)).toBe(REPLICA_NAME);
    expect(await metric(t, 'db_reads_total')).toStrictEqual([
      'db_reads_total{target="primary"} 1',
      'db_reads_total{target="replica"} 1',
    ]);
    const [lag] = await metric(t, 'db_replica_lag_seconds{replica="1"}');
    expect(Number(lag.split(' ')[1])).toBeLessThan(1);
  });

  it('answers a conditional GET from the primary: the caller has seen a version and must not be shown an older one', async () => {
    await replayed(await walNow());
    expect(await displayName(t)).toBe(REPLICA_NAME);
    expect(await displayName(t, { 'If-None-Match': '"other"' })).toBe(
      'Ada Lovelace',
    );
  });

  it("reads a caller's write from the primary until the replica has replayed it", async () => {
    await replayed(await walNow());
    await t
      .http()
      .put(API)
      .set(bearer(TOKENS.ada))
      .send({ displayName: 'Ada, just written' })
      .expect(200);
    expect(await displayName(t)).toBe('Ada, just written');
    await sleep(300);
    expect(await displayName(t)).toBe('Ada, just written');
    await replayed(await walNow());
    expect(await displayName(t)).toBe(REPLICA_NAME);
  });

  it('reads from the primary while the replica lags beyond the bound', async () => {
    const config = {
      databaseReplicaUrls: [replicaUrl(replica)],
      databaseReplicaMaxLagMs: 200,
    };
    await withTestApp({ tenants: [example()], config }, async (strict) => {
      // Ahead of everything: within any bound.
      await replayed('FFFFFFFF/0');
      expect(await displayName(strict)).toBe(REPLICA_NAME);
      await replayed(await walNow());
      await moveWalOn();
      await sleep(500);
      expect(await displayName(strict)).toBe('Ada Lovelace');
      const [lag] = await metric(strict, 'db_replica_lag_seconds');
      expect(Number(lag.split(' ')[1])).toBeGreaterThan(0.2);
    });
  });

  it('goes on answering when the servers close its idle connections (a restart, a failover)', async () => {
    await replayed(await walNow());
    expect(await displayName(t)).toBe(REPLICA_NAME);
    const databases = [t, replica].map((app) =>
      new URL(app.app.get(AppConfig).databaseUrl!).pathname.slice(1),
    );
    const closed = await withClient(async (c) => {
      const { rows } = await c.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = ANY ($1) AND pid <> pg_backend_pid()`,
        [databases],
      );
      return rows.length;
    });
    expect(closed).toBeGreaterThan(0);
    await sleep(300);
    // The primary answers at once; the replica again once a poll reaches it.
    expect(['Ada Lovelace', REPLICA_NAME]).toContain(await displayName(t));
    await until(async () => (await displayName(t)) === REPLICA_NAME, {
      what: 'reads from the replica again',
    });
  });

  it('answers from the primary, without an error, when a replica cannot be reached', async () => {
    const closedPort = await freePort();
    const config = {
      databaseReplicaUrls: [
        `postgresql://postgres@127.0.0.1:${closedPort}/nowhere`,
      ],
      databaseConnectTimeoutMs: 500,
    };
    await withTestApp({ tenants: [example()], config }, async (unreachable) => {
      await sleep(300);
      expect(await displayName(unreachable)).toBe('Ada Lovelace');
      expect(await metric(unreachable, 'db_replica_lag_seconds')).toStrictEqual(
        ['db_replica_lag_seconds{replica="1"} +Inf'],
      );
    });
  });
});

describe('reads from a replica by two instances sharing Redis', () => {
  // The position an earlier run left for this tenant is older than any
  // this run makes; deleted all the same, and nothing else of the Redis
  // (TEST_REDIS_URL, shared with other work) is touched.
  beforeAll(() => forgetWritePosition(example().tenant.id));
  const shared = (replicaUrl: string): Partial<AppConfig> => ({
    databaseReplicaUrls: [replicaUrl],
    databaseReplicaMaxLagMs: 600_000,
    redisUrl: REDIS_URL,
  });
  const [replica, first, second] = useReplicaSet(
    () => [replicaTenant()],
    (replicaUrl) => ({ tenants: [example()], config: shared(replicaUrl) }),
    secondInstance(shared),
  );

  it('shows a write on one instance to a read on the other at once', async () => {
    const lsn = await walNow();
    await replica.database.withSession((s) =>
      s.query('UPDATE replay_position SET lsn = $1', [lsn]),
    );
    await sleep(300);
    const read = (app: TestApp) =>
      app
        .http()
        .get(API)
        .set(bearer(TOKENS.ada))
        .expect(200)
        .then((res) => res.body.displayName as string);
    expect(await read(second)).toBe(REPLICA_NAME);
    await first
      .http()
      .put(API)
      .set(bearer(TOKENS.ada))
      .send({ displayName: 'Ada, written on the first' })
      .expect(200);
    expect(await read(second)).toBe('Ada, written on the first');
  });
});

describe('a GET that writes, on one instance, and a read on another', () => {
  const idp = useLocalIssuer();
  const reader = token({ appId: 'reader', scopes: ['identities:read'] });
  const file = tenantFile({ tokens: [reader] });
  const id = file.tenant.id;
  /** The tenant, trusting the issuer (whose address is known once it has started). */
  const withIssuer = () => ({
    ...file,
    tenant: {
      ...file.tenant,
      tokenIssuers: [
        { issuer: idp.issuer(id), audiences: [AUDIENCE], provisioning: 'jit' },
      ],
    },
  });
  afterAll(() => forgetWritePosition(id));
  const shared = (replicaUrl: string): Partial<AppConfig> => ({
    databaseReplicaUrls: [replicaUrl],
    databaseReplicaMaxLagMs: 600_000,
    redisUrl: REDIS_URL,
    // Every instance lists the tenant whose issuer is on loopback, as
    // the operator's one setting does.
    egressPrivateNetworkTenants: [id],
  });
  // The replica has the tenant as it was imported: no nora.
  const [replica, first, second] = useReplicaSet(
    () => [withIssuer()],
    (replicaUrl) => ({ tenants: [withIssuer()], config: shared(replicaUrl) }),
    secondInstance(shared),
  );

  it('records the position of the identity a token creates just in time: the other instance reads it', async () => {
    const lsn = await walNow();
    await replica.database.withSession((s) =>
      s.query('UPDATE replay_position SET lsn = $1', [lsn]),
    );
    await sleep(300);
    const nora = `/${id}/api/identity/v1/nora`;
    await second.http().get(nora).set(bearer(reader.token)).expect(404);
    const created = await first
      .as(await idp.sign({ sub: 'nora', name: 'Nora Berg' }, { realm: id }))
      .get(`/${id}/api/identity/v1`)
      .expect(200);
    expect(created.body).toMatchObject({
      identityId: 'nora',
      displayName: 'Nora Berg',
    });
    const { body } = await second
      .http()
      .get(nora)
      .set(bearer(reader.token))
      .expect(200);
    expect(body).toStrictEqual(created.body);
  });
});
