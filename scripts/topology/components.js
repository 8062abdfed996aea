// The pieces of the topology and how each is started: a PostgreSQL primary
// and its streaming replica, PgBouncer in front of the primary, a Redis of
// the topology's own, and service instances. Every process is recorded in
// the topology's state as soon as it exists, before it is waited on, so
// that `down` can stop it whatever happens next.
const {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  writeFileSync,
} = require('node:fs');
const { join } = require('node:path');
const { redisCommand, pgbouncerShow, request, sql } = require('./clients');
const { postgresUser, run, startDetached, waitFor } = require('./processes');
const { PROJECT } = require('./state');
const { SERVICE_NODE_FLAGS } = require('../service-flags');

const DATABASE = 'identity';
const SERVICE_MAIN = join(PROJECT, 'dist', 'main.js');
const CLI = join(PROJECT, 'dist', 'cli.js');
const DEMO_TENANT = join(PROJECT, 'prisma', 'demo-tenant.json');
// Small enough that the rate-limit check is quick, large enough for the
// other checks, which each start with empty counters; the window outlasts
// any check.
const RATE_LIMIT = 200;
const RATE_LIMIT_WINDOW_SECONDS = 600;

const postgresUrl = (port, database = DATABASE) =>
  `postgresql://postgres@127.0.0.1:${port}/${database}`;
const redisUrl = (port) => `redis://127.0.0.1:${port}`;
const serviceUrl = (port) => `http://127.0.0.1:${port}`;

/** A PostgreSQL program of the newest version Debian installed, or from PATH. */
function postgresProgram(name) {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((version) =>
        existsSync(join(root, version, 'bin', name)),
      )
    : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin', name) : name;
}

/** Options that run a PostgreSQL program (or PgBouncer, which refuses root too) as the right user. */
const asPostgres = () => ({
  ...postgresUser(),
  env: { PATH: `${process.env.PATH}:/usr/sbin` },
});

function makePostgresDir(dir) {
  mkdirSync(dir, { mode: 0o700 });
  const { uid, gid } = postgresUser();
  if (uid !== undefined) chownSync(dir, uid, gid);
}

/** A new cluster for the primary: trust on loopback only, no Unix socket. */
async function initPrimary(topology, port) {
  const dataDir = topology.path('primary');
  makePostgresDir(dataDir);
  await run(
    postgresProgram('initdb'),
    [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ],
    asPostgres(),
  );
  appendFileSync(
    join(dataDir, 'postgresql.conf'),
    [
      '',
      "listen_addresses = '127.0.0.1'",
      `port = ${port}`,
      "unix_socket_directories = ''",
      // A cluster that lives for a minute gains nothing from flushing to disk.
      'fsync = off',
      '',
    ].join('\n'),
  );
}

/** The replica's data directory: a base backup of the primary that follows it (-R writes the standby settings). */
async function cloneReplica(topology, primaryPort, port) {
  const dataDir = topology.path('replica');
  makePostgresDir(dataDir);
  await run(
    postgresProgram('pg_basebackup'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      dataDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ],
    asPostgres(),
  );
  // The copied configuration carries the primary's port; the last setting wins.
  appendFileSync(join(dataDir, 'postgresql.conf'), `port = ${port}\n`);
}

/** Starts the cluster in the directory named after `role` ('primary' or 'replica'). */
async function startPostgres(topology, role, port) {
  const log = topology.path(`${role}.log`);
  const child = startDetached(
    postgresProgram('postgres'),
    ['-D', topology.path(role)],
    { log, ...asPostgres() },
  );
  // SIGINT is PostgreSQL's fast shutdown: sessions are ended, not waited for.
  topology.record({
    role,
    pid: child.pid,
    startTime: child.startTime,
    port,
    stopSignal: 'SIGINT',
  });
  await waitFor(
    `PostgreSQL ${role}`,
    () => sql(postgresUrl(port, 'postgres'), 'SELECT 1'),
    { child, log },
  );
}

/** Creates the service's database and imports the demo tenant into it through the primary's own URL. */
async function importDemo(primaryPort) {
  await sql(
    postgresUrl(primaryPort, 'postgres'),
    `CREATE DATABASE ${DATABASE}`,
  );
  await run(process.execPath, [CLI, 'import', DEMO_TENANT], {
    cwd: PROJECT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: postgresUrl(primaryPort),
      LOG_LEVEL: 'warn',
    },
  });
}

async function startPgbouncer(topology, port, primaryPort) {
  const users = topology.path('pgbouncer-users.txt');
  const ini = topology.path('pgbouncer.ini');
  writeFileSync(users, '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      // Every database of the primary under its own name (the migration check
      // creates one), each server connection bounding its statements as the
      // instances' own sessions do (DATABASE_QUERY_TIMEOUT_MS, 30 s): behind
      // PgBouncer in transaction mode a session's SET does not hold.
      `* = host=127.0.0.1 port=${primaryPort} connect_query='SET statement_timeout = 30000'`,
      '',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      'admin_users = postgres',
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      // SHOW STATS totals are refreshed once a period; the checks read them within seconds.
      'stats_period = 1',
      '',
    ].join('\n'),
  );
  const log = topology.path('pgbouncer.log');
  const child = startDetached('pgbouncer', [ini], { log, ...asPostgres() });
  topology.record({
    role: 'pgbouncer',
    pid: child.pid,
    startTime: child.startTime,
    port,
  });
  await waitFor(
    'PgBouncer',
    () => pgbouncerShow(postgresUrl(port), 'VERSION'),
    { child, log },
  );
}

async function startRedis(topology, port) {
  const log = topology.path('redis.log');
  const child = startDetached(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      topology.dir,
    ],
    { log, env: { PATH: process.env.PATH } },
  );
  topology.record({
    role: 'redis',
    pid: child.pid,
    startTime: child.startTime,
    port,
  });
  await waitFor('Redis', () => redisCommand(redisUrl(port), 'PING'), {
    child,
    log,
  });
}

/**
 * Starts a service instance recorded as `role` on `port`, on `database`
 * through PgBouncer, with the replica for reads and, unless `direct` is
 * false, the primary as its direct URL; waits until it is ready. PgBouncer
 * 1.18 cannot keep prepared statements in transaction mode, so they are off.
 */
async function startService(
  topology,
  role,
  {
    port,
    database = DATABASE,
    migrate = false,
    direct = true,
    timeoutMs = 30_000,
  },
) {
  const { ports } = topology.state;
  const env = {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: postgresUrl(ports.pgbouncer, database),
    DATABASE_PREPARED_STATEMENTS: 'false',
    ...(direct
      ? { DATABASE_DIRECT_URL: postgresUrl(ports.primary, database) }
      : {}),
    DATABASE_REPLICA_URL: postgresUrl(ports.replica, database),
    REDIS_URL: redisUrl(ports.redis),
    MIGRATE_ON_START: String(migrate),
    SEED_DEMO: 'false',
    RATE_LIMIT: String(RATE_LIMIT),
    RATE_LIMIT_WINDOW_SECONDS: String(RATE_LIMIT_WINDOW_SECONDS),
    LOG_LEVEL: 'warn',
  };
  const log = topology.path(`${role}.log`);
  const child = startDetached(process.execPath, [...SERVICE_NODE_FLAGS, SERVICE_MAIN], { log, env });
  topology.record({
    role,
    pid: child.pid,
    startTime: child.startTime,
    port,
    service: { database, migrate },
  });
  const ready = async () =>
    (
      await request(serviceUrl(port), 'GET', '/health/ready', {
        timeoutMs: 2_000,
      })
    ).status === 200;
  await waitFor(`service ${role}`, ready, { child, log, timeoutMs });
}

module.exports = {
  postgresProgram,
  DATABASE,
  RATE_LIMIT,
  cloneReplica,
  importDemo,
  initPrimary,
  postgresUrl,
  redisUrl,
  serviceUrl,
  startPgbouncer,
  startPostgres,
  startRedis,
  startService,
};
