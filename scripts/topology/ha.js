// The high-availability topology (docs/topology.md, "High availability"):
// a pg_auto_failover monitor and two data nodes that it keeps as a primary
// with a synchronous standby, Redis, and two service instances given the
// formation's multi-host URL. Everything runs in the topology's directory,
// on loopback, as the postgres user where PostgreSQL needs it.
const { spawn } = require('node:child_process');
const {
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} = require('node:fs');
const { join } = require('node:path');
const { request, sql } = require('./clients');
const { redisUrl, serviceUrl, startRedis } = require('./components');
const {
  freePorts,
  postgresUser,
  run,
  startDetached,
  waitFor,
  waitForExit,
} = require('./processes');
const { PROJECT, Topology } = require('./state');
const { SERVICE_NODE_FLAGS } = require('../service-flags');

const HA_SERVICES = ['service-1', 'service-2'];
const NODES = ['node-1', 'node-2'];
const DATABASE = 'identity';
const SERVICE_MAIN = join(PROJECT, 'dist', 'main.js');
const CLI = join(PROJECT, 'dist', 'cli.js');
const DEMO_TENANT = join(PROJECT, 'prisma', 'demo-tenant.json');

/**
 * pg_auto_failover's timeouts, shortened so that a failover fits in a CI
 * run (docs/topology.md gives the figures with the defaults too). The
 * monitor calls a node unhealthy once its keeper has not reported for 3 s
 * (default 20 s) and its own health checks fail, gives a primary it cannot
 * reach 5 s to stop before promoting the standby (30 s); its health checks
 * run every second, retried twice half a second apart, each connection
 * attempt given a second (by default every 5 s, 2 s apart, 5 s each), so
 * that they have failed by then. A primary's keeper that can reach neither the monitor nor its
 * standby for 4 s (20 s) stops PostgreSQL itself: less than the demotion
 * timeout, so that it has stopped before the standby is promoted.
 */
const MONITOR_SETTINGS = {
  'pgautofailover.node_considered_unhealthy_timeout': '3000',
  'pgautofailover.primary_demote_timeout': '5000',
  'pgautofailover.health_check_period': '1000',
  'pgautofailover.health_check_retry_delay': '500',
  'pgautofailover.health_check_timeout': '1000',
};
const KEEPER_SETTINGS = { 'timeout.network_partition_timeout': '4' };

// What the instances are given: answers bounded while the database is away
// (the connection attempt to a server that is gone), webhook leases short
// enough that a claim lost with its connection is taken up again within
// seconds, and budgets the load never reaches.
const SERVICE_SETTINGS = {
  DATABASE_CONNECT_TIMEOUT_MS: '2000',
  WEBHOOK_POLL_MS: '200',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_SECONDS: '4',
  RATE_LIMIT: '1000000',
  RATE_LIMIT_WINDOW_SECONDS: '60',
};

const pgBin = (version) => join('/usr/lib/postgresql', version, 'bin');
const extensionControl = (version) =>
  join('/usr/share/postgresql', version, 'extension', 'pgautofailover.control');

/** The newest PostgreSQL version with both its server programs and the pgautofailover extension, or null. */
function autofailoverVersion() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter(
      (v) =>
        existsSync(join(pgBin(v), 'pg_ctl')) && existsSync(extensionControl(v)),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ?? null;
}

/**
 * What `up --ha` needs of this machine, as [program or file, how to get it]:
 * pg_autoctl and a PostgreSQL with the pgautofailover extension (the
 * Debian packages of PostgreSQL 15, the project's version), and Redis.
 */
function haPrerequisites() {
  const version = autofailoverVersion() ?? '15';
  const how =
    'pg_auto_failover: apt-get install postgresql-15-auto-failover pg-auto-failover-cli';
  return [
    ['pg_autoctl', how],
    [join(pgBin(version), 'pg_ctl'), how],
    [extensionControl(version), how],
    ['redis-server', 'Redis: apt-get install redis-server'],
  ];
}

const monitorUrl = (port, database = 'pg_auto_failover') =>
  `postgresql://postgres@127.0.0.1:${port}/${database}`;
const nodeUrl = (port, database = DATABASE) =>
  `postgresql://postgres@127.0.0.1:${port}/${database}`;

/** The directory pg_autoctl works in (data, configuration, sockets), owned by postgres. */
function pgDir(topology, ...parts) {
  return topology.path('pg', ...parts);
}

function makeOwnedDir(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { uid, gid } = postgresUser();
  if (uid !== undefined) chownSync(dir, uid, gid);
}

/** Makes `relative` under `root` (which exists), each level owned by postgres. */
function makeOwnedPath(root, relative) {
  let dir = root;
  for (const part of relative.split('/').filter(Boolean)) {
    dir = join(dir, part);
    makeOwnedDir(dir);
  }
}

/**
 * The environment of every pg_autoctl command: its configuration and state
 * files under the topology's directory instead of the postgres user's home
 * (XDG_*), PostgreSQL's Unix sockets there too (PG_REGRESS_SOCK_DIR is how
 * pg_autoctl passes `-k` to the servers it starts; PGHOST is where it then
 * connects to them), and a UTF-8 locale for the clusters it creates.
 */
function autoctlEnv(topology) {
  const { version } = topology.state.ha;
  const sockets = pgDir(topology, 'sock');
  return {
    PATH: `${pgBin(version)}:${process.env.PATH}`,
    HOME: pgDir(topology),
    XDG_CONFIG_HOME: pgDir(topology, 'config'),
    XDG_DATA_HOME: pgDir(topology, 'share'),
    XDG_RUNTIME_DIR: pgDir(topology, 'run'),
    PG_REGRESS_SOCK_DIR: sockets,
    PGHOST: sockets,
    LC_ALL: 'C.UTF-8',
  };
}

const asAutoctl = (topology) => ({
  ...postgresUser(),
  env: autoctlEnv(topology),
});

/** Runs a pg_autoctl command to its end as postgres; returns its standard output alone. */
function autoctl(topology, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('pg_autoctl', args, {
      ...asAutoctl(topology),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(
            new Error(`pg_autoctl ${args.join(' ')} failed (${code}):\n${err}`),
          ),
    );
  });
}

// Options every pg_autoctl node takes: loopback only, trust on loopback,
// and no TLS: every connection stays on this machine, where TLS would
// protect nothing, and the URI it prints (sslmode=prefer) then falls back
// to plain connections, as a client's sslmode=prefer does.
const COMMON = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl'];

/** Starts `pg_autoctl create … --run` for `role`, recorded at once with its data directory. */
function startAutoctl(topology, role, port, args) {
  const dataDir = pgDir(topology, role);
  const log = topology.path(`${role}.log`);
  const child = startDetached(
    'pg_autoctl',
    [
      'create',
      ...args,
      '--pgctl',
      join(pgBin(topology.state.ha.version), 'pg_ctl'),
      '--pgdata',
      dataDir,
      '--pgport',
      String(port),
      '--listen',
      '127.0.0.1',
      ...COMMON,
      '--run',
    ],
    { log, ...asAutoctl(topology) },
  );
  // SIGINT: pg_autoctl stops its PostgreSQL with a fast shutdown, then itself.
  topology.record({
    role,
    pid: child.pid,
    startTime: child.startTime,
    port,
    dataDir,
    stopSignal: 'SIGINT',
  });
  return child;
}

/** The monitor's view of the formation: one row per node, by name. */
async function formationState(topology) {
  const rows = await sql(
    monitorUrl(topology.state.ports.monitor),
    `SELECT nodename AS name, nodeport AS port, current_group_state AS current,
            assigned_group_state AS assigned
       FROM pgautofailover.current_state('default') ORDER BY nodename`,
  );
  return rows.map((r) => ({ ...r, port: Number(r.port) }));
}

/** The node that takes writes now (the monitor's primary, wait_primary or single), or undefined. */
function writable(nodes) {
  return nodes.find(
    (n) =>
      ['single', 'wait_primary', 'primary'].includes(n.current) &&
      n.assigned === n.current,
  );
}

/** A primary with a synchronous secondary, each in the state assigned to it. */
function healthy(nodes) {
  return (
    nodes.length === 2 &&
    nodes.some((n) => n.current === 'primary' && n.assigned === 'primary') &&
    nodes.some((n) => n.current === 'secondary' && n.assigned === 'secondary')
  );
}

/**
 * Waits until the formation is a primary and a secondary. While the new
 * standby's base backup waits for the primary's checkpoint, a CHECKPOINT
 * on the primary ends that wait: the backup's checkpoint is a spread one,
 * which on a new cluster naps 100 ms per dirty page (tens of seconds);
 * an immediate one requested meanwhile makes it finish at once.
 */
async function waitHealthy(topology, timeoutMs, { nudge = false } = {}) {
  let nudged = 0;
  return waitFor(
    'formation with a primary and a secondary',
    async () => {
      const nodes = await formationState(topology);
      if (healthy(nodes)) return nodes;
      const primary = writable(nodes);
      const standby = nodes.find((n) => n !== primary);
      if (
        nudge &&
        primary &&
        standby?.assigned === 'catchingup' &&
        Date.now() - nudged > 500
      ) {
        nudged = Date.now();
        await sql(nodeUrl(primary.port, 'postgres'), 'CHECKPOINT').catch(
          () => undefined,
        );
      }
      return undefined;
    },
    { timeoutMs },
  );
}

/** `pg_autoctl show uri --formation default`, as printed: the URL the instances are given. */
async function formationUri(topology) {
  return (
    await autoctl(topology, [
      'show',
      'uri',
      '--pgdata',
      pgDir(topology, 'monitor'),
      '--formation',
      'default',
    ])
  ).trim();
}

/**
 * The same servers, for reads: the standby (docs/operations.md, "High
 * availability"), which the instances keep reading while there is no
 * primary.
 */
const replicaUri = (uri) =>
  uri.replace(
    'target_session_attrs=read-write',
    'target_session_attrs=standby',
  );

async function shortenTimeouts(topology) {
  const monitor = monitorUrl(topology.state.ports.monitor);
  for (const [name, value] of Object.entries(MONITOR_SETTINGS))
    await sql(monitor, `ALTER SYSTEM SET ${name} = '${value}'`);
  await sql(monitor, 'SELECT pg_reload_conf()');
  await Promise.all(
    NODES.flatMap((role) =>
      Object.entries(KEEPER_SETTINGS).map(([name, value]) =>
        autoctl(topology, [
          'config',
          'set',
          '--pgdata',
          pgDir(topology, role),
          name,
          value,
        ]),
      ),
    ),
  );
}

/** The timeouts in force, as `name value` pairs, read back from the monitor and the keepers. */
async function timeoutsInForce(topology) {
  const monitor = await sql(
    monitorUrl(topology.state.ports.monitor),
    `SELECT name, setting FROM pg_settings
      WHERE name = ANY($1) ORDER BY name`,
    [Object.keys(MONITOR_SETTINGS)],
  );
  const keepers = await Promise.all(
    NODES.map(async (role) => {
      const value = await autoctl(topology, [
        'config',
        'get',
        '--pgdata',
        pgDir(topology, role),
        'timeout.network_partition_timeout',
      ]);
      return `${role} timeout.network_partition_timeout ${value.trim()} s`;
    }),
  );
  return [...monitor.map((r) => `${r.name} ${r.setting} ms`), ...keepers];
}

/** Imports the demo tenant through the primary's own URL (which also applies the migrations). */
function importDemo(primaryPort) {
  return run(process.execPath, [CLI, 'import', DEMO_TENANT], {
    cwd: PROJECT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: nodeUrl(primaryPort),
      LOG_LEVEL: 'warn',
    },
  });
}

/**
 * Starts everything: the monitor, both nodes and Redis at once (a node
 * waits for the monitor by itself; the first to register becomes the
 * primary, the other its standby), the demo tenant imported as soon as
 * there is a primary, then the instances on the formation's URL. Each
 * step that fails rejects, and `up` then stops what was started.
 */
async function startHa(topology, { defaultTimeouts }) {
  const version = autofailoverVersion();
  const [monitor, node1, node2, redis, ...services] = await freePorts(
    4 + HA_SERVICES.length,
  );
  topology.state.kind = 'ha';
  topology.state.ha = { version, defaultTimeouts };
  Object.assign(topology.state.ports, {
    monitor,
    'node-1': node1,
    'node-2': node2,
    redis,
  });
  topology.state.urls = {
    MONITOR_URL: monitorUrl(monitor),
    REDIS_URL: redisUrl(redis),
    SERVICE_URLS: services.map(serviceUrl),
  };
  topology.save();
  for (const dir of ['', 'sock', 'run']) makeOwnedDir(pgDir(topology, dir));
  // pg_autoctl keeps each node's configuration, state and pid files under
  // XDG_*/pg_autoctl/<its data directory>, creating what is missing; the
  // three processes start at once and each would create the directories
  // they share, and one that finds a directory made meanwhile stops
  // ("Failed to create state directory …: File exists"). Made beforehand,
  // level by level, each owned by postgres.
  for (const base of ['config', 'share', 'run'])
    for (const role of ['monitor', ...NODES])
      makeOwnedPath(
        pgDir(topology),
        join(base, 'pg_autoctl', pgDir(topology, role)),
      );

  const monitorChild = startAutoctl(topology, 'monitor', monitor, ['monitor']);
  const nodeChildren = NODES.map((role) =>
    startAutoctl(topology, role, topology.state.ports[role], [
      'postgres',
      '--name',
      role,
      '--dbname',
      DATABASE,
      '--monitor',
      `postgres://autoctl_node@127.0.0.1:${monitor}/pg_auto_failover?sslmode=prefer`,
    ]),
  );
  const redisStarted = startRedis(topology, redis);
  const exited = () =>
    [monitorChild, ...nodeChildren].some((child) => child.exited);

  await waitFor(
    'pg_auto_failover monitor',
    () => sql(monitorUrl(monitor), 'SELECT 1 FROM pgautofailover.formation'),
    {
      timeoutMs: 30_000,
      child: monitorChild,
      log: topology.path('monitor.log'),
    },
  );
  const primary = await waitFor(
    'a primary in the formation',
    async () => {
      if (exited()) throw new Error('a pg_autoctl process exited');
      return writable(await formationState(topology));
    },
    { timeoutMs: 60_000 },
  );
  // The instances start as soon as the tenant is in and both nodes are
  // registered (the URL names them), while the standby is still being
  // built; the timeouts are shortened once the formation is whole.
  const instances = async () => {
    await Promise.all([importDemo(primary.port), redisStarted]);
    await waitFor(
      'both nodes registered',
      async () => (await formationState(topology)).length === NODES.length,
      { timeoutMs: 30_000 },
    );
    const uri = await formationUri(topology);
    topology.state.urls.DATABASE_URL = uri;
    topology.state.urls.DATABASE_REPLICA_URL = replicaUri(uri);
    topology.save();
    await Promise.all(
      HA_SERVICES.map((role, i) => startHaService(topology, role, services[i])),
    );
  };
  const formation = async () => {
    await waitHealthy(topology, 90_000, { nudge: true });
    if (!defaultTimeouts) await shortenTimeouts(topology);
  };
  await Promise.all([instances(), formation()]);
}

/** Starts a service instance on the formation and waits until it is ready. */
async function startHaService(topology, role, port) {
  const { urls } = topology.state;
  const env = {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: urls.DATABASE_URL,
    DATABASE_REPLICA_URL: urls.DATABASE_REPLICA_URL,
    // The formation's URL names no user; node-postgres takes PGUSER then.
    PGUSER: 'postgres',
    REDIS_URL: urls.REDIS_URL,
    MIGRATE_ON_START: 'false',
    SEED_DEMO: 'false',
    // The webhook receiver of the checks listens on loopback.
    EGRESS_PRIVATE_NETWORK_TENANTS: 'demo',
    LOG_LEVEL: 'warn',
    ...SERVICE_SETTINGS,
  };
  const log = topology.path(`${role}.log`);
  const child = startDetached(
    process.execPath,
    [...SERVICE_NODE_FLAGS, SERVICE_MAIN],
    { log, env },
  );
  topology.record({ role, pid: child.pid, startTime: child.startTime, port });
  await waitFor(
    `service ${role}`,
    async () =>
      (
        await request(serviceUrl(port), 'GET', '/health/ready', {
          timeoutMs: 2_000,
        })
      ).status === 200,
    { child, log, timeoutMs: 30_000 },
  );
}

/**
 * Writes `.topology/env` of the HA topology (the directory, the monitor,
 * the formation's URLs, Redis, the instances) and returns its text.
 */
function writeHaEnv(topology) {
  const { urls } = topology.state;
  const lines = [
    `TOPOLOGY_DIR=${topology.dir}`,
    ...['MONITOR_URL', 'DATABASE_URL', 'DATABASE_REPLICA_URL', 'REDIS_URL']
      .filter((name) => urls[name])
      .map((name) => `${name}=${urls[name]}`),
    ...(urls.SERVICE_URLS
      ? [`SERVICE_URLS="${urls.SERVICE_URLS.join(' ')}"`]
      : []),
  ];
  const text = `${lines.join('\n')}\n`;
  writeFileSync(Topology.envFile(), text);
  return text;
}

// Instances first, then Redis, then the nodes (both at once: the monitor
// must still be up to see them go), then the monitor.
const HA_STOP_ORDER = [['service-'], ['redis'], NODES, ['monitor']];

/** The PID a data directory's postmaster.pid names, if that process is a postgres of this directory. */
function postmasterOf(dataDir) {
  let pid;
  try {
    pid = Number(
      readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
    );
  } catch {
    return null;
  }
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes(dataDir) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * PIDs of the live pg_autoctl and postgres processes in process group
 * `pgid`: a pg_autoctl we started leads one, which its services and their
 * postmaster stay in.
 */
function groupMembers(pgid) {
  const members = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const command = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      if (
        fields[0] !== 'Z' &&
        Number(fields[2]) === pgid &&
        ['pg_autoctl', 'postgres'].includes(command)
      )
        members.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return members;
}

/**
 * Continues every pg_autoctl process of the nodes and the monitor, so that
 * one a check left stopped (SIGSTOP) stops when asked to rather than
 * holding its parent until it is killed.
 */
function thawAutoctl(topology) {
  for (const entry of topology.state.processes.filter((p) => p.dataDir))
    for (const pid of groupMembers(entry.pid)) process.kill(pid, 'SIGCONT');
}

/**
 * After the pg_autoctl processes are stopped: a postmaster still running
 * in one of their data directories (one whose pg_autoctl was killed, or
 * that outlived it), or a process left in one of their process groups, is
 * stopped by its PID. Returns notes to print, and whether nothing is left.
 */
async function stopLeftovers(topology) {
  const notes = [];
  let clean = true;
  for (const entry of topology.state.processes.filter((p) => p.dataDir)) {
    const postmaster = postmasterOf(entry.dataDir);
    const strays = [
      ...new Set([
        ...(postmaster ? [postmaster] : []),
        ...groupMembers(entry.pid),
      ]),
    ];
    for (const pid of strays) {
      // SIGINT first: a postmaster's fast shutdown; then SIGKILL. SIGCONT
      // for a process a check left stopped.
      process.kill(pid, 'SIGINT');
      process.kill(pid, 'SIGCONT');
      let gone = await waitForExit(pid, 5_000);
      if (!gone) {
        process.kill(pid, 'SIGKILL');
        gone = await waitForExit(pid, 2_000);
      }
      notes.push(
        `${entry.role}: left-over pid ${pid} ${gone ? 'stopped' : 'still running'}`,
      );
      clean &&= gone;
    }
  }
  return { clean, notes };
}

module.exports = {
  HA_SERVICES,
  HA_STOP_ORDER,
  NODES,
  autoctl,
  formationState,
  groupMembers,
  haPrerequisites,
  healthy,
  monitorUrl,
  nodeUrl,
  pgDir,
  postmasterOf,
  startHa,
  stopLeftovers,
  thawAutoctl,
  timeoutsInForce,
  waitHealthy,
  writable,
  writeHaEnv,
};
