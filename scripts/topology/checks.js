// The checks `check` and `test` run. Each prints one line: PASS or FAIL,
// what it expected and what it saw. Each starts with empty rate-limit
// counters and leaves the topology as it found it (a stopped replica is
// started again, a killed instance replaced, a setting reset), so that
// `check` can run again.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('pg');
const {
  pgbouncerShow,
  redisCommand,
  request,
  requestText,
  sql,
  withDatabase,
} = require('./clients');
const {
  DATABASE,
  RATE_LIMIT,
  postgresUrl,
  serviceUrl,
  startPostgres,
  startService,
} = require('./components');
const {
  connectionsTo,
  freePorts,
  signalProcess,
  sleep,
  stopProcess,
  waitFor,
  waitForExit,
} = require('./processes');
const { PROJECT } = require('./state');

const API = '/demo/api/identity/v1';
// Different tokens for different checks, so that none spends another's budget.
const TOKENS = {
  reader: 'demo-zoe-access-token',
  writers: ['demo-alice-access-token', 'demo-bob-access-token'],
  rateLimit: 'demo-reader-app-token',
  redis: 'demo-admin-app-token',
};

/** Counts of each status in a list of answers, as `200 ×12, 429 ×3`. */
function statusCounts(answers) {
  const counts = new Map();
  for (const { status, error } of answers) {
    const key = status || error || 'no answer';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return (
    [...counts].map(([status, n]) => `${status} ×${n}`).join(', ') || 'none'
  );
}

const slowest = (answers) =>
  `${Math.round(Math.max(0, ...answers.map((a) => a.ms)))} ms`;

/** What the script needs to reach the topology: URLs, instances, database-admin URLs. */
function context(topology, roles) {
  const { ports } = topology.state;
  const instances = () =>
    roles.map((role) => {
      const entry = topology.process(role);
      return { role, pid: entry.pid, url: serviceUrl(entry.port) };
    });
  return {
    topology,
    ports,
    instances,
    redisUrl: topology.state.urls.REDIS_URL,
    pgbouncerUrl: topology.state.urls.PGBOUNCER_URL,
    // Connected to the `postgres` database, so that the script's own queries never count for the service's.
    primary: postgresUrl(ports.primary, 'postgres'),
    replica: postgresUrl(ports.replica, 'postgres'),
  };
}

async function replicaCommits(ctx) {
  const [row] = await sql(
    ctx.replica,
    'SELECT xact_commit FROM pg_stat_database WHERE datname = $1',
    [DATABASE],
  );
  return Number(row.xact_commit);
}

async function pgbouncerTransactions(ctx) {
  const row = (await pgbouncerShow(ctx.pgbouncerUrl, 'STATS')).find(
    (r) => r.database === DATABASE,
  );
  return Number(row?.total_xact_count ?? 0);
}

/**
 * How many transactions PgBouncer counted since `before`, waiting up to 3 s
 * for `wanted` of them: it adds up its statistics once a second.
 */
async function pgbouncerGrowth(ctx, before, wanted) {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const grown = (await pgbouncerTransactions(ctx)) - before;
    if (grown >= wanted || Date.now() > deadline) return grown;
    await sleep(200);
  }
}

/** Instances with a connection to the replica that ran a query since `since` (the replica's clock). */
async function instancesQueryingReplica(ctx, instances, since) {
  const rows = await sql(
    ctx.replica,
    `SELECT client_port FROM pg_stat_activity
      WHERE datname = $1 AND backend_type = 'client backend' AND query_start >= $2`,
    [DATABASE, since],
  );
  const ports = new Set(rows.map((r) => r.client_port));
  return instances.filter((i) =>
    connectionsTo(i.pid, ctx.ports.replica).some((port) => ports.has(port)),
  );
}

/**
 * GETs taking turns on the instances, paced, until the replica has run at
 * least `wanted` transactions of the service's database and every instance
 * has queried it, or `timeoutMs` passes. A busy PostgreSQL publishes a
 * session's counters at most once a second, hence steady traffic rather
 * than a burst.
 */
async function readTraffic(ctx, { timeoutMs, wanted = 10 }) {
  const instances = ctx.instances();
  const before = await replicaCommits(ctx);
  const [{ now: since }] = await sql(
    ctx.replica,
    'SELECT clock_timestamp() AS now',
  );
  const answers = [];
  const started = Date.now();
  for (let turn = 0; ; turn++) {
    answers.push(
      await request(instances[turn % instances.length].url, 'GET', API, {
        token: TOKENS.reader,
      }),
    );
    const grown = (await replicaCommits(ctx)) - before;
    const querying = await instancesQueryingReplica(ctx, instances, since);
    const done = grown >= wanted && querying.length === instances.length;
    if (done || Date.now() - started > timeoutMs)
      return {
        pass: done && answers.every((a) => a.status === 200),
        saw:
          `${answers.length} GETs (${statusCounts(answers)}) in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
          `replica xact_commit +${grown}; instances querying the replica: ${querying.map((i) => i.role).join(', ') || 'none'}`,
      };
    await sleep(50);
  }
}

async function replicaStreams(ctx) {
  const senders = await sql(
    ctx.primary,
    'SELECT state FROM pg_stat_replication',
  );
  const [replica] = await sql(
    ctx.replica,
    'SELECT pg_is_in_recovery() AS recovery, (SELECT status FROM pg_stat_wal_receiver) AS receiver',
  );
  return {
    name: 'replica streams and is in recovery',
    pass:
      senders.some((s) => s.state === 'streaming') &&
      replica.recovery &&
      replica.receiver === 'streaming',
    expected:
      'primary sending to a streaming standby; replica in recovery, WAL receiver streaming',
    saw:
      `primary: ${senders.length} standby(s) [${senders.map((s) => s.state).join(', ')}]; ` +
      `replica: in recovery ${replica.recovery}, WAL receiver ${replica.receiver ?? 'absent'}`,
  };
}

async function pgbouncerCarries(ctx) {
  const instances = ctx.instances();
  const mode = (await pgbouncerShow(ctx.pgbouncerUrl, 'CONFIG')).find(
    (r) => r.key === 'pool_mode',
  )?.value;
  const before = await pgbouncerTransactions(ctx);
  const puts = [];
  for (let n = 0; n < 10; n++) {
    const instance = instances[n % instances.length];
    puts.push(
      await request(instance.url, 'PUT', API, {
        token: TOKENS.writers[0],
        body: { displayName: `Alice ${n}` },
      }),
    );
  }
  const grown = await pgbouncerGrowth(ctx, before, puts.length);
  const through = instances.map(
    (i) => `${i.role} ${connectionsTo(i.pid, ctx.ports.pgbouncer).length}`,
  );
  const direct = instances.map(
    (i) => `${i.role} ${connectionsTo(i.pid, ctx.ports.primary).length}`,
  );
  return {
    name: 'PgBouncer pools in transaction mode and carries the traffic',
    pass:
      mode === 'transaction' &&
      puts.every((p) => p.status === 200) &&
      grown >= puts.length &&
      instances.every(
        (i) => connectionsTo(i.pid, ctx.ports.pgbouncer).length > 0,
      ),
    expected: `pool_mode transaction; ${puts.length} PUTs answered 200 and counted as transactions by PgBouncer; every instance connected to it`,
    saw:
      `pool_mode ${mode}; PUTs ${statusCounts(puts)}; PgBouncer transactions on "${DATABASE}" +${grown}; ` +
      `connections to PgBouncer: ${through.join(', ')}; directly to the primary: ${direct.join(', ')}`,
  };
}

async function readsOnReplica(ctx) {
  const { pass, saw } = await readTraffic(ctx, { timeoutMs: 4_000 });
  return {
    name: 'GETs on both instances are served by the replica',
    pass,
    expected:
      'every GET 200; replica xact_commit +10 or more; every instance querying the replica',
    saw,
  };
}

/**
 * One caller alternating between two instances: a PUT (with the ETag last
 * seen as If-Match) on one, at once a GET on the other, which must show the
 * new ETag; the next PUT goes to that other instance with that ETag.
 */
async function writeThenRead([first, second], token, tries) {
  let [writer, reader] = [first, second];
  let etag = (await request(writer.url, 'GET', API, { token })).etag;
  const puts = [];
  let fresh = 0;
  for (let n = 0; n < tries; n++) {
    const put = await request(writer.url, 'PUT', API, {
      token,
      ifMatch: etag,
      body: { displayName: `Try ${n}` },
    });
    puts.push(put);
    if (put.status === 200) etag = put.etag;
    const get = await request(reader.url, 'GET', API, { token });
    if (get.status === 200 && get.etag === etag) fresh++;
    [writer, reader] = [reader, writer];
  }
  return { puts, fresh };
}

async function readYourWrites(ctx) {
  const instances = ctx.instances();
  const setDelay = async (statement) => {
    await sql(ctx.replica, statement);
    await sql(ctx.replica, 'SELECT pg_reload_conf()');
  };
  const triesPerCaller = 30;
  await setDelay("ALTER SYSTEM SET recovery_min_apply_delay = '500ms'");
  try {
    await waitFor(
      'recovery_min_apply_delay',
      async () =>
        (await sql(ctx.replica, 'SHOW recovery_min_apply_delay'))[0]
          .recovery_min_apply_delay === '500ms',
      { timeoutMs: 5_000 },
    );
    // Whether the delay holds: right after a write the replica has not replayed it yet.
    await request(instances[0].url, 'PUT', API, {
      token: TOKENS.writers[0],
      body: { displayName: 'Alice' },
    });
    const [{ lsn: written }] = await sql(
      ctx.primary,
      'SELECT pg_current_wal_lsn()::text AS lsn',
    );
    const [{ behind }] = await sql(
      ctx.replica,
      'SELECT pg_last_wal_replay_lsn() < $1::pg_lsn AS behind',
      [written],
    );
    const before = await replicaCommits(ctx);
    const callers = await Promise.all(
      TOKENS.writers.map((token, i) =>
        writeThenRead(
          i ? [...instances].reverse() : instances,
          token,
          triesPerCaller,
        ),
      ),
    );
    const tries = callers.length * triesPerCaller;
    const puts = callers.flatMap((c) => c.puts);
    const fresh = callers.reduce((sum, c) => sum + c.fresh, 0);
    const accepted = puts.filter((p) => p.status === 200).length;
    return {
      name: 'read-your-writes across instances with the replica 500 ms behind',
      pass: behind && fresh === tries && accepted === tries,
      expected: `replica behind right after a write; in ${tries} tries the GET on the other instance shows the new ETag and the PUT with it as If-Match is accepted`,
      saw:
        `replica behind after a write: ${behind}; new ETag seen ${fresh}/${tries}; ` +
        `PUTs ${statusCounts(puts)}; replica xact_commit +${(await replicaCommits(ctx)) - before} meanwhile`,
    };
  } finally {
    await setDelay('ALTER SYSTEM RESET recovery_min_apply_delay');
  }
}

async function replicaOutage(ctx) {
  const instances = ctx.instances();
  const replica = ctx.topology.process('replica');
  const results = [];
  let started = Date.now();
  const { stopped, note } = await stopProcess(replica);
  if (!stopped) throw new Error(`could not stop the replica: ${note}`);
  try {
    const before = await pgbouncerTransactions(ctx);
    const answers = [];
    for (let round = 0; round < 10; round++) {
      for (const instance of instances)
        answers.push(
          await request(instance.url, 'GET', API, { token: TOKENS.reader }),
        );
      await sleep(50);
    }
    const grown = await pgbouncerGrowth(ctx, before, answers.length);
    results.push({
      name: 'replica stopped: GETs answer 200 from the primary',
      pass: answers.every((a) => a.status === 200) && grown >= answers.length,
      expected: `${answers.length} GETs on both instances answered 200, as many transactions or more through PgBouncer`,
      saw: `${statusCounts(answers)} (slowest ${slowest(answers)}); PgBouncer transactions +${grown}`,
      ms: Date.now() - started,
    });
  } finally {
    started = Date.now();
    await startPostgres(ctx.topology, 'replica', replica.port);
  }
  await waitFor(
    'replica streaming again',
    async () =>
      (await sql(ctx.replica, 'SELECT status FROM pg_stat_wal_receiver'))[0]
        ?.status === 'streaming',
    { timeoutMs: 10_000 },
  );
  const { pass, saw } = await readTraffic(ctx, { timeoutMs: 10_000 });
  results.push({
    name: 'replica started again: reads return to it',
    pass,
    expected:
      'within 10 s: every GET 200, replica xact_commit +10 or more, every instance querying the replica',
    saw,
    ms: Date.now() - started,
  });
  return results;
}

/** `RATE_LIMIT` + 10 requests with one token, alternating between the instances. */
async function spendBudget(ctx, token) {
  const instances = ctx.instances();
  const answers = [];
  for (let n = 0; n < RATE_LIMIT + 10; n++)
    answers.push(
      await request(
        instances[n % instances.length].url,
        'GET',
        `${API}/alice`,
        { token },
      ),
    );
  const ok = answers.filter((a) => a.status === 200).length;
  const limited = answers.filter((a) => a.status === 429).length;
  return {
    pass: ok === RATE_LIMIT && limited === 10,
    saw: statusCounts(answers),
  };
}

async function rateLimit(ctx) {
  const { pass, saw } = await spendBudget(ctx, TOKENS.rateLimit);
  return {
    name: 'rate limit shared by both instances',
    pass,
    expected: `${RATE_LIMIT + 10} requests alternating between the instances: 200 ×${RATE_LIMIT}, 429 ×10`,
    saw,
  };
}

async function redisPause(ctx) {
  const instances = ctx.instances();
  const redis = ctx.topology.process('redis');
  const results = [];
  let started = Date.now();
  signalProcess(redis, 'SIGSTOP');
  try {
    const answers = (
      await Promise.all(
        instances.map(async (instance) => {
          const own = [];
          for (let n = 0; n < 3; n++)
            own.push(
              await request(instance.url, 'GET', `${API}/bob`, {
                token: TOKENS.redis,
                timeoutMs: 1_000,
              }),
            );
          return own;
        }),
      )
    ).flat();
    results.push({
      name: 'Redis paused: both instances answer within a second',
      pass: answers.every((a) => a.status === 200),
      expected: `${answers.length} GETs, 3 on each instance, answered 200 within 1 s each`,
      saw: `${statusCounts(answers)} (slowest ${slowest(answers)})`,
      ms: Date.now() - started,
    });
  } finally {
    signalProcess(redis, 'SIGCONT');
  }
  started = Date.now();
  // Each instance tries Redis again a few times a second and says in its
  // metrics when it uses it again; then counting starts afresh.
  await waitFor(
    'instances using Redis again after it resumed',
    async () => {
      const metrics = await Promise.all(
        instances.map((i) => requestText(i.url, '/metrics')),
      );
      return metrics.every((text) => /^redis_available 1$/m.test(text));
    },
    { timeoutMs: 5_000 },
  );
  await redisCommand(ctx.redisUrl, 'FLUSHALL');
  const { pass, saw } = await spendBudget(ctx, TOKENS.redis);
  results.push({
    name: 'Redis resumed: the instances share the budget again',
    pass,
    expected: `${RATE_LIMIT + 10} requests alternating between the instances: 200 ×${RATE_LIMIT}, 429 ×10`,
    saw,
    ms: Date.now() - started,
  });
  return results;
}

async function instanceKilled(ctx) {
  const [survivor, victim] = ctx.instances();
  const entry = ctx.topology.process(victim.role);
  const answers = [];
  const traffic = (async () => {
    const until = Date.now() + 1_500;
    while (Date.now() < until) {
      answers.push(
        await request(survivor.url, 'GET', API, { token: TOKENS.reader }),
      );
      await sleep(20);
    }
  })();
  await sleep(300);
  signalProcess(entry, 'SIGKILL');
  const gone = await waitForExit(entry.pid, 5_000);
  await traffic;
  // Put a new instance in its place, so that the topology is whole again.
  const started = Date.now();
  let replaced = 'ready';
  await startService(ctx.topology, victim.role, {
    port: entry.port,
    ...entry.service,
  }).catch((error) => {
    replaced = `failed: ${error.message.split('\n')[0]}`;
  });
  return {
    name: 'one instance killed: the other keeps serving',
    pass:
      gone && answers.every((a) => a.status === 200) && replaced === 'ready',
    expected: `${victim.role} gone after SIGKILL; every GET on ${survivor.role} meanwhile 200; a replacement ready`,
    saw:
      `${victim.role} (pid ${entry.pid}) ${gone ? 'gone' : 'still running'}; ${survivor.role}: ${statusCounts(answers)} ` +
      `(slowest ${slowest(answers)}); replacement ${replaced} in ${Date.now() - started} ms`,
  };
}

/**
 * Clients of `url` running short transactions until `stop` is called, as the
 * other users of a database do in production: through PgBouncer in
 * transaction mode they keep every server connection changing hands, so a
 * session's consecutive statements rarely share one.
 */
function busyClients(url, count) {
  let running = true;
  const loops = Array.from({ length: count }, async () => {
    const client = new Client({
      connectionString: url,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
    });
    await client.connect();
    try {
      while (running) {
        await client.query('SELECT 1');
        // Often enough to take every released server connection, without starving the starting instances of CPU.
        await sleep(1);
      }
    } finally {
      await client.end();
    }
  });
  return async () => {
    running = false;
    const ended = await Promise.allSettled(loops);
    return ended
      .filter((loop) => loop.status === 'rejected')
      .map((loop) => loop.reason.message);
  };
}

async function migrationsOnce(ctx) {
  const database = 'identity_fresh';
  const expected = readdirSync(join(PROJECT, 'prisma', 'migrations'), {
    withFileTypes: true,
  })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const roles = ['fresh-1', 'fresh-2'];
  await sql(ctx.primary, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await sql(ctx.primary, `CREATE DATABASE ${database}`);
  try {
    const ports = await freePorts(roles.length);
    const stopLoad = busyClients(withDatabase(ctx.pgbouncerUrl, database), 4);
    const starts = await Promise.allSettled(
      roles.map((role, i) =>
        startService(ctx.topology, role, {
          port: ports[i],
          database,
          migrate: true,
          // Without a direct URL the migrations go through PgBouncer too.
          direct: false,
          timeoutMs: 15_000,
        }),
      ),
    );
    const loadErrors = await stopLoad();
    if (loadErrors.length)
      throw new Error(
        `the other clients of ${database} failed: ${loadErrors[0]}`,
      );
    const ready = starts.map(
      (s, i) =>
        `${roles[i]} ${s.status === 'fulfilled' ? 'ready' : s.reason.message.split('\n')[0]}`,
    );
    const applied = await sql(
      withDatabase(ctx.topology.state.urls.PRIMARY_URL, database),
      `SELECT migration_name AS name, count(*)::int AS runs, count(finished_at)::int AS finished
         FROM _prisma_migrations GROUP BY migration_name ORDER BY migration_name`,
    ).catch((error) => error);
    const once =
      Array.isArray(applied) &&
      applied.length === expected.length &&
      applied.every(
        (m, i) => m.name === expected[i] && m.runs === 1 && m.finished === 1,
      );
    const locks = await sql(
      ctx.primary,
      `SELECT l.pid, d.datname, l.objid, l.granted FROM pg_locks l LEFT JOIN pg_database d ON d.oid = l.database
        WHERE l.locktype = 'advisory'`,
    );
    return {
      name: 'two instances starting at once on an empty database migrate it once',
      pass:
        starts.every((s) => s.status === 'fulfilled') &&
        once &&
        locks.length === 0,
      expected: `migrating through PgBouncer (no direct URL), with 4 other clients busy on the database through it: both ready; each of the ${expected.length} migrations recorded once and finished; no advisory lock held`,
      saw: `${ready.join(', ')}; migrations: ${
        Array.isArray(applied)
          ? applied.map((m) => `${m.name} ×${m.runs}`).join(', ') || 'none'
          : applied.message
      }; advisory locks: ${locks.map((l) => `key ${l.objid} on ${l.datname} ${l.granted ? 'held' : 'awaited'} by pid ${l.pid}`).join(', ') || 'none'}`,
    };
  } finally {
    for (const role of roles) {
      const entry = ctx.topology.process(role);
      if (entry && (await stopProcess(entry)).stopped)
        ctx.topology.forget(role);
    }
    await sql(ctx.primary, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

const CHECKS = [
  replicaStreams,
  pgbouncerCarries,
  readsOnReplica,
  readYourWrites,
  replicaOutage,
  rateLimit,
  redisPause,
  instanceKilled,
  migrationsOnce,
];

/**
 * Runs every check, printing a line for each result (a check of two phases,
 * such as stopping and starting the replica, gives one for each, timed on
 * its own); true when all passed.
 */
async function runChecks(topology, roles) {
  const ctx = context(topology, roles);
  let passed = true;
  for (const check of CHECKS) {
    const started = Date.now();
    let results;
    try {
      await redisCommand(ctx.redisUrl, 'FLUSHALL');
      results = [].concat(await check(ctx));
    } catch (error) {
      results = [
        {
          name: check.name,
          pass: false,
          expected: 'to run to its end',
          saw: `error: ${error.message}`,
        },
      ];
    }
    for (const {
      name,
      pass,
      expected,
      saw,
      ms = Date.now() - started,
    } of results) {
      const seconds = (ms / 1000).toFixed(1);
      console.log(
        `${pass ? 'PASS' : 'FAIL'}  ${name} (${seconds} s) — expected: ${expected}; saw: ${saw}`,
      );
      passed &&= pass;
    }
  }
  return passed;
}

module.exports = { runChecks };
