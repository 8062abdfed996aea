#!/usr/bin/env node
// The benchmark: the production build, the conventional peer (bench/peer.js,
// NestJS + Passport + Prisma as a team would write it first, for the
// scenarios it serves) and the floor (bench/baseline.js, node:http + pg with
// prepared statements) in turn, on the same data, driven by autocannon with
// 64 connections and rotating tokens and ids. Prints a table and writes
// bench/results.json.
//
//   npm run bench              # 100,000-identity tenant, 15 s per scenario
//   npm run bench -- --quick   # small data, a few seconds per scenario (CI)
//   npm run bench -- --unnamed # also the floor with unnamed statements
//   npm run bench -- --wrk     # also GET current identity driven by wrk (bench/wrk.js)
//   npm run bench -- --ledger  # the cost of each layer of GET current (bench/ledger.js)
//   npm run bench -- --ledger --before ../old/dist  # and of another version's build
//
// After the saturation runs, GET of the current identity is driven at a
// fixed rate, open loop, against each of the three in turn — half the
// floor's saturation, then half the service's —: p50, p99 and p99.9. The
// run ends with the performance targets checked on its figures (bench/targets.js).
const { spawn, execFileSync } = require('node:child_process');
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { cpus, totalmem } = require('node:os');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { targets, targetsTable } = require('./targets');
const { openLoop: generate } = require('./open-loop');
const { hasWrk, wrkPass, CONNECTIONS: WRK_CONNECTIONS, THREADS: WRK_THREADS } = require('./wrk');
const { SERVICE_NODE_FLAGS: DEPLOYED_FLAGS } = require('../scripts/service-flags');

const ROOT = resolve(__dirname, '..');
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    // For working on one scenario: `--only friends --duration 5 --cpu-prof`.
    only: { type: 'string' },
    duration: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    // Sampled allocations of the service (Node's --heap-prof), in bench/profiles/.
    'heap-prof': { type: 'boolean', default: false },
    // The floor once more with unnamed statements, parsed and planned per
    // request as the service's queries are; it adds a run of every scenario.
    unnamed: { type: 'boolean', default: false },
    // GET current identity once more, driven by wrk instead of autocannon.
    wrk: { type: 'boolean', default: false },
    // Another build of the service, e.g. a platform experiment's dist/main.js.
    service: { type: 'string' },
    // Node/V8 flags for the service process, e.g. "--trace-gc".
    'node-flags': { type: 'string' },
    // The cost ledger instead of the scenarios (bench/ledger.js), in rounds.
    ledger: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    // The ledger's fixed rate (default: half the service's saturation).
    rate: { type: 'string' },
    // The ledger also measures this build of another version (a dist/ directory).
    before: { type: 'string' },
  },
});
const SERVICE = values.service ? resolve(values.service) : join(ROOT, 'dist', 'main.js');
const PEER = join(__dirname, 'peer.js');
const FLOOR = join(__dirname, 'baseline.js');
const QUICK = values.quick;
const SIZE = QUICK ? 2000 : 100000;
const WARMUP = QUICK ? 1 : 3;
// A fixed-rate run's warm-up is also at least this many requests. About
// 10,500 requests into a fresh process V8 recompiles the request path with
// its optimizing compiler, all at once: the runs measure the state after it,
// which 3 s reach only at 3,500 requests/s or more (docs/benchmark.md,
// "Warm-up counted in requests"). Quick runs keep their second.
const WARMUP_REQUESTS = 15000;
const fixedRateWarmup = (rate) => (QUICK ? WARMUP : Math.max(WARMUP, WARMUP_REQUESTS / rate));
const DURATION = values.duration ? Number(values.duration) : QUICK ? 3 : values.ledger ? 5 : 15;
const PROFILE_DIR = join(ROOT, 'bench', 'profiles');
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgresql://postgres@127.0.0.1:5432/identity_bench${QUICK ? '_quick' : ''}`;
const pad = (i) => String(i).padStart(6, '0');

async function identityCount() {
  const client = new Client({ connectionString: DATABASE_URL });
  try {
    await client.connect();
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM identity WHERE tenant_id = 'bench'`);
    return rows[0].n;
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// The service runs with the Node.js flags it is deployed with
// (scripts/service-flags.js), then --node-flags' (V8 takes a flag's last
// value: `--node-flags=--max-semi-space-size=0` is V8's default young
// generation); the floor and the peer with Node's defaults.
const SERVICE_NODE_FLAGS = [...DEPLOYED_FLAGS, ...(values['node-flags'] ? values['node-flags'].split(' ') : [])];
// Its profiling flags while it is measured (not while its bodies are
// checked, so that each profile is of one measured run).
const PROFILE_FLAGS = [
  ...(values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : []),
  ...(values['heap-prof'] ? ['--heap-prof', '--heap-prof-dir', PROFILE_DIR] : []),
];

function start(script, port, extra = {}, flags = [], { ipc = false } = {}) {
  // The service as deployed (one log line per request, to stdout, which is
  // discarded here), with a rate limit the benchmark cannot reach. `ipc`
  // opens a channel to it (the ledger's allocation probe answers on it).
  const env = { PATH: process.env.PATH, PORT: String(port), DATABASE_URL, SEED_DEMO: 'false', RATE_LIMIT: '1000000', ...extra };
  // Its stdout is shown only when a --trace flag asks for V8's lines there;
  // otherwise its request log would cost the run a terminal's speed.
  const nodeFlags = script === SERVICE ? [...SERVICE_NODE_FLAGS, ...flags] : flags;
  const tracing = nodeFlags.some((flag) => flag.startsWith('--trace'));
  const stdio = ['ignore', tracing ? 'inherit' : 'ignore', 'inherit', ...(ipc ? ['ipc'] : [])];
  const child = spawn(process.execPath, [...nodeFlags, script], { env, stdio });
  return new Promise((ready, fail) => {
    const timer = setInterval(async () => {
      const up = await fetch(`http://127.0.0.1:${port}/bench/api/identity/v1`).then(() => true, () => false);
      if (up) {
        clearInterval(timer);
        ready(child);
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(timer);
      fail(new Error(`${script} exited with ${code}`));
    });
  });
}

/** Tokens and ids of the generated data, rotated so that no cache can cheat. */
function rotate(items) {
  let n = 0;
  return () => items[n++ % items.length];
}
const ACCESS = Array.from({ length: Math.min(1000, SIZE) }, (_, k) => `bench-bench-access-${pad(Math.floor((k * SIZE) / Math.min(1000, SIZE)))}`);
const APPS = Array.from({ length: 10 }, (_, k) => `bench-bench-app-${pad(k)}`);
const IDS = Array.from({ length: 1000 }, (_, k) => `u${pad((k * 7919) % SIZE)}`);
const SMALL_ACCESS = Array.from({ length: 100 }, (_, k) => `bench-small-1-access-${pad(Math.floor((k * Math.max(50, Math.round(SIZE / 100))) / 100))}`);

const API = '/bench/api/identity/v1';
const SCIM = '/bench/scim/v2';
// A provisioning token, made when the run starts (the generated data has none).
const SCIM_TOKENS = [];
// The third element marks the scenarios the peer serves; the fourth, those
// only the service serves (the floor and the peer have no SCIM).
const BY_PEER = true;
const SERVICE_ONLY = true;
const scimFilter = (filter) => `${SCIM}/Users?count=20&filter=${encodeURIComponent(filter)}`;
const ALL_SCENARIOS = [
  ['GET current identity', () => ({ path: API, tokens: ACCESS }), BY_PEER],
  [`GET current identity (tenant of ${Math.max(50, Math.round(SIZE / 100))})`, () => ({ path: '/small-1/api/identity/v1', tokens: SMALL_ACCESS }), BY_PEER],
  ['GET /{id} (admin app)', () => ({ paths: IDS.map((id) => `${API}/${id}`), tokens: APPS })],
  ['GET accounts', () => ({ path: `${API}/accounts`, tokens: ACCESS })],
  ['GET friends (20)', () => ({ path: `${API}/friends`, tokens: ACCESS })],
  ['GET friends of the 5,000-friend identity', () => ({ path: `${API}/u000000/friends`, tokens: APPS })],
  // Its latency on its own: at 64 connections the queue sets the p50.
  ['GET friends of the 5,000-friend identity, 1 connection', () => ({ path: `${API}/u000000/friends`, tokens: APPS, connections: 1 })],
  ['GET friends of the 5,000-friend identity, limit=100', () => ({ path: `${API}/u000000/friends?limit=100`, tokens: APPS })],
  ['GET roles', () => ({ path: `${API}/roles`, tokens: ACCESS }), BY_PEER],
  // What Entra ID and Okta send before each write: one User by userName.
  ['SCIM Users by userName', () => ({ paths: IDS.map((id) => scimFilter(`userName eq "${id}"`)), tokens: SCIM_TOKENS }), false, SERVICE_ONLY],
  // A filter that reads every User of the tenant: four comparisons, paged.
  // A directory sends a few requests at once; at 64 connections a query
  // that reads every User only queues (past the client's timeout).
  ['SCIM Users, 4-comparison filter', () => ({ paths: IDS.map((id) => scimFilter(`emails co "${id.slice(-3)}@" and displayName sw "User" and active eq true and not (externalId pr)`)), tokens: SCIM_TOKENS, connections: 8 }), false, SERVICE_ONLY],
  // The one write, last: the peak through the GET scenarios is theirs alone.
  ['PUT display name', () => ({ path: API, tokens: ACCESS, put: true })],
];
// GET current identity and its small-tenant variant: the targets' scenarios.
const CURRENT = ALL_SCENARIOS.slice(0, 2).map(([name]) => name);
const SCENARIOS = ALL_SCENARIOS.filter(([name]) => !values.only || name.includes(values.only));

/** CPU time (user + system, ms) a process has used: /proc/<pid>/stat, in clock ticks. */
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return undefined;
  }
}
/** CPU time of every PostgreSQL process of this machine, by PID (backends of other databases idle meanwhile). */
function postgresCpu() {
  const byPid = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const cpu = cpuMs(pid);
    if (cpu?.comm === 'postgres') byPid.set(pid, cpu.ms);
  }
  return byPid;
}
/**
 * CPU ms per request of the server (all its threads, and its main thread:
 * the event loop, which bounds its throughput) and of PostgreSQL over a
 * run (processes that ended meanwhile not counted).
 */
function cpuPerRequest(before, after, requests) {
  const per = (ms) => Number((ms / requests).toFixed(3));
  let postgres = 0;
  for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
  return { serverCpuMs: per(after.server - before.server), mainThreadCpuMs: per(after.main - before.main), postgresCpuMs: per(postgres) };
}
const cpuNow = (pid) => ({ server: cpuMs(pid)?.ms ?? NaN, main: cpuMs(`${pid}/task/${pid}`)?.ms ?? NaN, postgres: postgresCpu() });

async function drive(port, make, pid) {
  const { path, paths, tokens, put, connections = 64 } = make();
  const token = rotate(tokens);
  const target = paths ? rotate(paths) : () => path;
  let n = 0;
  const request = {
    method: put ? 'PUT' : 'GET',
    setupRequest: (req) => ({
      ...req,
      path: target(),
      headers: { authorization: `Bearer ${token()}`, ...(put ? { 'content-type': 'application/json' } : {}) },
      ...(put ? { body: JSON.stringify({ displayName: `Bench ${n++}` }) } : {}),
    }),
  };
  const options = { url: `http://127.0.0.1:${port}`, connections, requests: [request] };
  await autocannon({ ...options, duration: WARMUP });
  const before = cpuNow(pid);
  // autocannon runs in this process: its CPU time is this process's.
  const generator = process.cpuUsage();
  const r = await autocannon({ ...options, duration: DURATION });
  const { user, system } = process.cpuUsage(generator);
  const cpu = cpuPerRequest(before, cpuNow(pid), r.requests.total);
  const generatorCpuS = Number(((user + system) / 1e6).toFixed(2));
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx, ...cpu, generatorCpuS };
}

/** The peak resident memory of a process so far (Linux: VmHWM), in MB. */
function peakRssMb(pid) {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Math.round(Number(kb[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the scenarios against one server; figures by scenario name. */
async function runAll(script, port, extra, scenarios = SCENARIOS) {
  const results = new Map();
  if (!scenarios.length) return { results };
  const child = await start(script, port, extra, script === SERVICE ? PROFILE_FLAGS : []);
  // What starting alone reached, to tell it from what a scenario added.
  const startPeakRssMb = peakRssMb(child.pid);
  try {
    for (const [name, make] of scenarios) {
      const figures = await drive(port, make, child.pid);
      // The peak so far: the scenario that raised it is the one to look at.
      results.set(name, { ...figures, peakRssMb: peakRssMb(child.pid) });
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
  return { results, peakRss: [...results.values()].at(-1).peakRssMb, startPeakRssMb };
}

/**
 * Latency at a fixed load, open loop (as wrk2 measures it): GET of the
 * current identity sent at `rate` requests per second on 64 connections
 * whatever the answers do, each latency counted from when its request was
 * due, so that a stall shows in every request it delays (no coordinated
 * omission). Warms up for WARMUP seconds or WARMUP_REQUESTS requests,
 * whichever is longer, then measures for DURATION.
 */
async function fixedRate(script, port, rate) {
  const child = await start(script, port, {});
  try {
    const { latencies } = await openLoop(port, rate, child.pid);
    return { rate, ...latencies };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

/**
 * Drives GET current at `rate` (open loop, 64 connections, bench/open-loop.js):
 * `warmup` seconds, then `seconds` measured (fixedRateWarmup(rate) and
 * DURATION unless given). Returns p50/p99/p99.9 (ms, from each request's due
 * time) with the generator's own collections, the number of requests
 * measured and the CPU per request of the server `pid` and of PostgreSQL;
 * with a `probe` ({ begin, end }, async), also what its `end` answers, its
 * window the measured seconds.
 */
async function openLoop(port, rate, pid, { warmup = fixedRateWarmup(rate), seconds = DURATION, probe } = {}) {
  const drive = (seconds, onStart) => generate({ port, path: API, tokens: ACCESS, rate, seconds, onStart });
  if (warmup) await drive(warmup);
  let before;
  const { requests, generatorGc, ...latencies } = await drive(seconds, async () => {
    await probe?.begin();
    before = cpuNow(pid);
  });
  const cpu = cpuPerRequest(before, cpuNow(pid), requests);
  const probed = await probe?.end();
  return { latencies: { ...latencies, generatorGc }, requests, probed, ...cpu };
}

/**
 * The floor and the peer must answer exactly what the service answers: the
 * same status, 200, and the same JSON body (compared parsed, so key order and
 * headers such as ETag may differ).
 */
async function verifySameBodies() {
  const servers = [];
  try {
    for (const [script, port] of [[SERVICE, 3201], [FLOOR, 3202], [PEER, 3203]]) servers.push(await start(script, port));
    const { isDeepStrictEqual } = require('node:util');
    const checks = [
      [API, ACCESS[1], BY_PEER],
      ['/small-1/api/identity/v1', SMALL_ACCESS[1], BY_PEER],
      [`${API}/accounts`, ACCESS[2]],
      [`${API}/friends`, ACCESS[3]],
      [`${API}/roles`, ACCESS[4], BY_PEER],
      [`${API}/${IDS[5]}`, APPS[0]],
      [`${API}/u000000/friends?limit=100`, APPS[1]],
    ];
    for (const [path, token, byPeer] of checks) {
      const get = async (port) => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, body: await res.json() };
      };
      const expected = await get(3201);
      if (expected.status !== 200) throw new Error(`The service answers ${path} with ${expected.status}`);
      for (const [name, port] of [['floor', 3202], ...(byPeer ? [['peer', 3203]] : [])]) {
        const actual = await get(port);
        if (!isDeepStrictEqual(actual, expected)) throw new Error(`The ${name} answers ${path} differently:\n${JSON.stringify(expected)}\n${JSON.stringify(actual)}`);
      }
    }
  } finally {
    for (const server of servers) server.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 500));
  }
}

/** Runs one statement on the benchmark's database. */
async function sql(statement) {
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Sets the last use of the benchmark's tokens (an SQL value). */
const lastUse = (value) => sql(`UPDATE token SET last_used_at = ${value}`);

/** The cost ledger of GET current: prints it and, after a full run, writes bench/ledger-results.json. */
async function runLedger() {
  const { ledger, ledgerTable } = require('./ledger');
  // A token's first use in a minute writes its last use (one UPDATE); runs
  // a minute apart would pay it or not by chance, so the ledger measures
  // the read path alone: the tokens read as just used meanwhile.
  const rounds = values.rounds ? Number(values.rounds) : QUICK ? 3 : 7;
  console.log(`Cost ledger of GET current identity: ${rounds} rounds, ${DURATION} s per run, ${SIZE} identities`);
  let result;
  try {
    await lastUse(`now() + interval '1 day'`);
    // The replica configuration's stand-in standby (bench/ledger.js).
    await sql(
      `CREATE OR REPLACE FUNCTION public.pg_last_wal_replay_lsn() RETURNS pg_lsn LANGUAGE sql AS 'SELECT pg_current_wal_lsn()'`,
    );
    result = await ledger({
      start,
      drive,
      openLoop,
      make: ALL_SCENARIOS[0][1],
      path: API,
      token: ACCESS[1],
      floor: FLOOR,
      peer: PEER,
      rounds,
      port: 3205,
      databaseUrl: DATABASE_URL,
      only: values.only,
      rate: values.rate ? Number(values.rate) : undefined,
      before: values.before && resolve(values.before),
    });
  } finally {
    // Back to never used, as the generated data has them.
    await lastUse('NULL');
    await sql('DROP FUNCTION IF EXISTS public.pg_last_wal_replay_lsn()');
  }
  const machine = `${cpus().length} × ${cpus()[0].model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  console.log(`\nCost ledger (${QUICK ? 'quick' : 'full'}: ${SIZE} identities, 64 connections) on ${machine}\n`);
  console.log(ledgerTable(result));
  // One round (CI's check that every switch still answers alike) resolves nothing.
  if (values.only || rounds < 3) console.log('(a partial or one-round ledger: bench/ledger-results.json is left as it was)');
  else
    writeFileSync(
      join(__dirname, 'ledger-results.json'),
      `${JSON.stringify({ machine, date: new Date().toISOString().slice(0, 10), identities: SIZE, seconds: DURATION, ...result }, null, 2)}\n`,
    );
}

/** GET current identity with wrk, beside autocannon's run of it (`current`, a row of the table). */
function printWrk(viaWrk, current) {
  console.log(
    `\n${CURRENT[0]} with wrk (${WRK_CONNECTIONS} connections, ${WRK_THREADS} threads, ${DURATION} s) and with autocannon ` +
      '(its run above); CPU s: the load generator\'s own over the measured seconds:\n',
  );
  console.log('| | wrk req/s | p50 ms | p99 ms | wrk CPU s | autocannon req/s | p50 ms | p99 ms | autocannon CPU s | failed (wrk) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, key] of [['service', 'service'], ['peer', 'peer'], ['floor', 'baseline']]) {
    const [w, a] = [viaWrk[name], current?.[key]];
    const autocannonCells = a ? `${a.rps} | ${a.p50} | ${a.p99} | ${a.generatorCpuS}` : '– | – | – | –';
    console.log(`| ${name} | ${w.rps} | ${w.p50} | ${w.p99} | ${w.generatorCpuS} | ${autocannonCells} | ${w.errors} |`);
  }
}

async function main() {
  if ((await identityCount()) !== SIZE) {
    console.log(`Generating and importing the benchmark data (${SIZE} identities)…`);
    execFileSync(process.execPath, [join(__dirname, 'data.js'), '--identities', String(SIZE)], {
      env: { ...process.env, BENCH_DATABASE_URL: DATABASE_URL },
      stdio: 'inherit',
    });
  }
  // The ledger measures GET current only: no SCIM token for it.
  if (values.ledger) return runLedger();
  SCIM_TOKENS.push(
    execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'token', 'create', '--tenant', 'bench', '--app', 'bench-scim', '--scope', 'scim:provision'], {
      env: { PATH: process.env.PATH, DATABASE_URL },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim(),
  );
  await verifySameBodies();
  const service = await runAll(SERVICE, 3201, {});
  const peer = await runAll(PEER, 3203, {}, SCENARIOS.filter(([, , byPeer]) => byPeer));
  const floorScenarios = SCENARIOS.filter(([, , , serviceOnly]) => !serviceOnly);
  const floor = await runAll(FLOOR, 3202, {}, floorScenarios);
  const unnamed = values.unnamed ? await runAll(FLOOR, 3204, { BASELINE_STATEMENTS: 'unnamed' }, floorScenarios) : undefined;
  // At half of what the floor served at saturation (the same rate for all
  // three), and at half of what the service served, where it is not
  // overloaded.
  const [floorCurrent, serviceCurrent] = [floor, service].map((s) => s.results.get('GET current identity'));
  const atRate = [];
  if (floorCurrent)
    for (const [what, served] of [["the floor's", floorCurrent], ["the service's", serviceCurrent]]) {
      const rate = Math.round(served.rps / 2);
      atRate.push({ what, rate, service: await fixedRate(SERVICE, 3201, rate), peer: await fixedRate(PEER, 3203, rate), floor: await fixedRate(FLOOR, 3202, rate) });
    }
  // GET current identity once more, with wrk; its bodies were checked above.
  const wrkServers = [['service', SERVICE, 3201], ['peer', PEER, 3203], ['floor', FLOOR, 3202]];
  const viaWrk = values.wrk ? await wrkPass({ start, servers: wrkServers, path: API, tokens: ACCESS, warmup: WARMUP, seconds: DURATION }) : undefined;
  const ratio = (a, b) => (b ? Number((a.rps / b.rps).toFixed(2)) : undefined);
  const rows = SCENARIOS.map(([scenario]) => {
    const [s, p, b, u] = [service, peer, floor, unnamed].map((server) => server?.results.get(scenario));
    return { scenario, service: s, peer: p, baseline: b, unnamedBaseline: u, ratio: ratio(s, b), peerRatio: ratio(s, p), unnamedRatio: ratio(s, u) };
  });
  const machine = `${cpus().length} × ${cpus()[0].model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  console.log(`\nBenchmark (${QUICK ? 'quick' : 'full'}: ${SIZE} identities, 64 connections, ${DURATION} s per scenario) on ${machine}\n`);
  const servers = ['Service', 'Peer', 'Floor', ...(unnamed ? ['Unnamed floor'] : [])];
  const ratios = ['÷ floor', '÷ peer', ...(unnamed ? ['÷ unnamed'] : [])];
  console.log(`| Scenario | ${servers.map((name) => `${name} req/s | p50 ms | p99 ms`).join(' | ')} | ${ratios.join(' | ')} |`);
  console.log(`|---|${'---|'.repeat(servers.length * 3 + ratios.length)}`);
  const cells = (f) => (f ? `${f.rps} | ${f.p50} | ${f.p99}` : '– | – | –');
  for (const r of rows) {
    const figures = [r.service, r.peer, r.baseline, ...(unnamed ? [r.unnamedBaseline] : [])].map(cells);
    const quotients = [r.ratio ?? '–', r.peerRatio ?? '–', ...(unnamed ? [r.unnamedRatio] : [])];
    console.log(`| ${r.scenario} | ${figures.join(' | ')} | ${quotients.join(' | ')} |`);
  }
  // What each request costs in CPU, which sets requests per second per core
  // (docs/operations.md, Capacity): the server's process and PostgreSQL's.
  console.log('\n| Scenario | Service CPU ms/req | its PostgreSQL CPU ms/req | Floor CPU ms/req | its PostgreSQL CPU ms/req |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.scenario} | ${r.service?.serverCpuMs} | ${r.service?.postgresCpuMs} | ${r.baseline?.serverCpuMs ?? '–'} | ${r.baseline?.postgresCpuMs ?? '–'} |`);
  for (const run of atRate) {
    console.log(`\nGET current identity at a fixed ${run.rate} req/s (half ${run.what} saturation), open loop, 64 connections, ${DURATION} s:\n`);
    console.log("| | p50 ms | p99 ms | p99.9 ms | failed | the load generator's own collections: count, ms in all (longest) |");
    console.log('|---|---|---|---|---|---|');
    for (const name of ['service', 'peer', 'floor']) {
      const [r, gc] = [run[name], run[name].generatorGc];
      console.log(`| ${name} | ${r.p50} | ${r.p99} | ${r.p999} | ${r.errors} | ${gc.count}, ${gc.ms} (${gc.maxMs}) |`);
    }
    console.log(`Service p99 ÷ floor p99: ${(run.service.p99 / run.floor.p99).toFixed(2)}; ÷ peer p99: ${(run.service.p99 / run.peer.p99).toFixed(2)}`);
  }
  if (viaWrk) printWrk(viaWrk, rows.find((r) => r.scenario === CURRENT[0]));
  const failures = [
    ...rows.flatMap((r) =>
      [['service', r.service], ['peer', r.peer], ['floor', r.baseline], ['unnamed floor', r.unnamedBaseline]]
        .filter(([, f]) => f?.errors)
        .map(([name, f]) => `${r.scenario}: ${name} ${f.errors}`),
    ),
    ...Object.entries(viaWrk ?? {})
      .filter(([, f]) => f.errors)
      .map(([name, f]) => `${CURRENT[0]} with wrk: ${name} ${f.errors} (${Object.entries(f.failed).map((e) => e.join(' ')).join(', ')})`),
  ];
  console.log(failures.length ? `\nFailed requests (errors, timeouts, non-2xx): ${failures.join('; ')}` : '\nNo request failed.');
  console.log(
    `Peak RSS of the service: ${service.peakRss} MB (of the peer: ${peer.peakRss ?? '–'} MB, of the floor: ${floor.peakRss ?? '–'} MB); ` +
      `after each scenario: ${[...service.results.values()].map((s) => s.peakRssMb).join(', ')} MB`,
  );
  const goals = targets({ rows, atRate, current: CURRENT, startPeakRssMb: service.startPeakRssMb });
  console.log(`\nTargets${QUICK ? ' (a quick run: small data, short runs)' : ''}:\n\n${targetsTable(goals)}\n`);
  if (QUICK || values.only || values.duration || values.service || values['node-flags'] || values['cpu-prof'] || values['heap-prof'])
    console.log('(a quick, partial or profiled run: bench/results.json is left as it was)');
  else {
    const results = {
      machine, date: new Date().toISOString().slice(0, 10), quick: QUICK, identities: SIZE,
      peakRssMb: service.peakRss, peerPeakRssMb: peer.peakRss, baselinePeakRssMb: floor.peakRss, unnamedBaselinePeakRssMb: unnamed?.peakRss,
      scenarios: rows,
      fixedRate: atRate,
      targets: goals,
      wrk: viaWrk && { connections: WRK_CONNECTIONS, threads: WRK_THREADS, seconds: DURATION, scenario: CURRENT[0], ...viaWrk },
    };
    writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    // docs/operations.md's capacity figures are this run's.
    execFileSync(process.execPath, [join(__dirname, '..', 'scripts', 'docs-figures.js')], { stdio: 'inherit' });
  }
  if (failures.length) {
    console.error('Some requests failed.');
    process.exitCode = 1;
  }
}

if (values.wrk && !hasWrk()) {
  console.error('--wrk needs the wrk program on PATH (on Debian: apt-get install wrk)');
  process.exit(1);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
