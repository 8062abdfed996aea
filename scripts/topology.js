#!/usr/bin/env node
// A primary with a streaming replica, PgBouncer, Redis and two service
// instances on this machine, without containers; and the checks that the
// service behaves in it (docs/topology.md).
//
//   npm run topology -- up      start it; URLs in .topology/env
//   npm run topology -- check   run the checks against it
//   npm run topology -- down    stop what `up` started, remove its directory
//   npm run topology -- test    up, check, down; non-zero exit on any failure
//
// With --ha, up and test start the high-availability topology instead (a
// pg_auto_failover formation; scripts/topology/ha.js), and --default-timeouts
// keeps pg_auto_failover's own timeouts there; check and down find out
// which topology is up.
const { existsSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { runChecks } = require('./topology/checks');
const {
  HA_STOP_ORDER,
  haPrerequisites,
  startHa,
  stopLeftovers,
  thawAutoctl,
  writeHaEnv,
} = require('./topology/ha');
const { runHaChecks } = require('./topology/ha-checks');
const {
  cloneReplica,
  importDemo,
  initPrimary,
  postgresProgram,
  postgresUrl,
  redisUrl,
  serviceUrl,
  startPgbouncer,
  startPostgres,
  startRedis,
  startService,
} = require('./topology/components');
const {
  freePorts,
  refuseNewProcesses,
  stopProcess,
} = require('./topology/processes');
const { PROJECT, Topology } = require('./topology/state');

const SERVICES = ['service-1', 'service-2'];

/** A program on PATH (or in /usr/sbin, where Debian puts PgBouncer), or in `path` itself. */
function found(program) {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin'];
  return program.startsWith('/')
    ? existsSync(program)
    : dirs.some((dir) => dir && existsSync(join(dir, program)));
}

/**
 * What `up` needs of this machine, checked before anything starts; each one
 * missing is named with the command that installs it.
 */
function missingPrerequisites({ ha }) {
  const needs = ha
    ? haPrerequisites()
    : [
        [
          postgresProgram('initdb'),
          'PostgreSQL 15 or later: apt-get install postgresql',
        ],
        [
          postgresProgram('pg_basebackup'),
          'PostgreSQL 15 or later: apt-get install postgresql',
        ],
        ['pgbouncer', 'PgBouncer: apt-get install pgbouncer'],
        ['redis-server', 'Redis: apt-get install redis-server'],
      ];
  return [...new Set(needs.filter(([p]) => !found(p)).map(([, how]) => how))];
}

/**
 * The last lines of each process's log in the topology's directory, which
 * `down` removes: what a failed start leaves to go on. Passwords in
 * connection strings are shown as `***`.
 */
function printLogTails(topology, lines = 15) {
  // The service's own masking of a connection string (built: up checks dist/).
  const { redactCredentials } = require(
    join(PROJECT, 'dist', 'config', 'app-config'),
  );
  let logs = [];
  try {
    logs = readdirSync(topology.dir).filter((name) => name.endsWith('.log'));
  } catch {
    return;
  }
  for (const name of logs.sort()) {
    let text;
    try {
      text = readFileSync(join(topology.dir, name), 'utf8');
    } catch {
      continue;
    }
    const tail = text
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .map(redactCredentials);
    console.error(
      `--- ${name}, its last ${tail.length} lines:\n${tail.join('\n')}`,
    );
  }
}

async function up(options = {}) {
  const running = Topology.load();
  if (running)
    throw new Error(
      `A topology is up already (${running.dir}); run down first.`,
    );
  for (const file of ['dist/main.js', 'dist/cli.js'])
    if (!existsSync(join(PROJECT, file)))
      throw new Error(`${file} is missing; run npm run build first.`);
  const missing = missingPrerequisites(options);
  if (missing.length)
    throw new Error(
      `The topology needs what this machine lacks: ${missing.join('; ')}. Nothing was started.`,
    );
  const topology = Topology.create();
  const started = Date.now();
  try {
    await (options.ha ? startHa(topology, options) : start(topology));
  } catch (error) {
    console.error(error.message);
    printLogTails(topology);
    await down();
    throw new Error('up failed; what it had started is stopped.');
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `Topology up in ${seconds} s (${topology.dir}); ${Topology.envFile()}:`,
  );
  console.log(
    (options.ha ? writeHaEnv(topology) : topology.writeEnv()).trimEnd(),
  );
}

async function start(topology) {
  const [primary, replica, pgbouncer, redis, ...services] = await freePorts(
    4 + SERVICES.length,
  );
  Object.assign(topology.state.ports, { primary, replica, pgbouncer, redis });
  topology.state.urls = {
    PRIMARY_URL: postgresUrl(primary),
    REPLICA_URL: postgresUrl(replica),
    PGBOUNCER_URL: postgresUrl(pgbouncer),
    REDIS_URL: redisUrl(redis),
    SERVICE_URLS: services.map(serviceUrl),
  };
  topology.save();
  topology.writeEnv();

  await initPrimary(topology, primary);
  await startPostgres(topology, 'primary', primary);
  await settled([
    cloneReplica(topology, primary, replica).then(() =>
      startPostgres(topology, 'replica', replica),
    ),
    importDemo(primary),
    startPgbouncer(topology, pgbouncer, primary),
    startRedis(topology, redis),
  ]);
  await settled(
    SERVICES.map((role, i) =>
      startService(topology, role, { port: services[i] }),
    ),
  );
}

/** Like Promise.all, but waits for every step to end, so that none is still starting processes once one failed. */
async function settled(steps) {
  const failed = (await Promise.allSettled(steps)).find(
    (step) => step.status === 'rejected',
  );
  if (failed) throw failed.reason;
}

// Instances first (they hold connections to everything else), then PgBouncer
// and Redis, then the replica before its primary.
const STOP_ORDER = [
  ['service-', 'fresh-'],
  ['pgbouncer', 'redis'],
  ['replica'],
  ['primary'],
];

// One stop per process, however many times it is asked for (Ctrl-C and a
// failing `up` may ask at once).
let stopping;
const down = () => (stopping ??= stopAll());

async function stopAll() {
  refuseNewProcesses();
  const topology = Topology.load();
  if (!topology) {
    const stale = existsSync(Topology.envFile());
    rmSync(Topology.envFile(), { force: true });
    console.log(
      stale
        ? 'No topology directory left; removed a stale .topology/env.'
        : 'No topology is up.',
    );
    return true;
  }
  let clean = true;
  const ha = topology.state.kind === 'ha';
  if (ha) thawAutoctl(topology);
  for (const prefixes of ha ? HA_STOP_ORDER : STOP_ORDER) {
    const group = topology.state.processes.filter((p) =>
      prefixes.some((prefix) => p.role.startsWith(prefix)),
    );
    for (const { stopped, note } of await Promise.all(
      group.map((entry) => stopProcess(entry)),
    )) {
      console.log(note);
      clean &&= stopped;
    }
  }
  if (ha) {
    const leftovers = await stopLeftovers(topology);
    for (const note of leftovers.notes) console.log(note);
    clean &&= leftovers.clean;
  }
  if (!clean) {
    console.log(
      `Kept ${topology.dir} (a process could not be stopped); run down again.`,
    );
    return false;
  }
  topology.remove();
  console.log(`Removed ${topology.dir}.`);
  return true;
}

async function check() {
  const topology = Topology.load();
  if (!topology) throw new Error('No topology is up; run up first.');
  return topology.state.kind === 'ha'
    ? runHaChecks(topology)
    : runChecks(topology, SERVICES);
}

async function test(options) {
  const started = Date.now();
  let passed = false;
  try {
    await up(options);
    passed = await check();
  } finally {
    await down();
  }
  console.log(
    `${passed ? 'All checks passed' : 'Some checks failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  return passed;
}

const COMMANDS = { up, check, down, test };

async function main() {
  const command = COMMANDS[process.argv[2]];
  const flags = process.argv.slice(3);
  const options = {
    ha: flags.includes('--ha'),
    defaultTimeouts: flags.includes('--default-timeouts'),
  };
  const known =
    command === up || command === test
      ? flags.every((flag) => ['--ha', '--default-timeouts'].includes(flag)) &&
        (options.ha || !options.defaultTimeouts)
      : flags.length === 0;
  if (!command || !known) {
    console.error(
      'Usage: npm run topology -- up|test [--ha [--default-timeouts]] | check | down',
    );
    process.exit(2);
  }
  // Ctrl-C during up or test stops everything started so far; the processes
  // run in process groups of their own, so the signal reaches only us.
  if (command === up || command === test)
    process.once('SIGINT', () => {
      console.log('\nInterrupted; stopping the topology.');
      down().finally(() => process.exit(130));
    });
  try {
    const result = await command(options);
    process.exitCode = result === false ? 1 : 0;
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}

main();
