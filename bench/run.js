#!/usr/bin/env node
// The benchmark: the production build and the node:http + pg baseline
// (bench/baseline.js) in turn, on the same data, driven by autocannon with
// 64 connections and rotating tokens and ids. Prints a table and writes
// bench/results.json.
//
//   npm run bench              # 100,000-identity tenant, 15 s per scenario
//   npm run bench -- --quick   # small data, a few seconds per scenario (CI)
const { spawn, execFileSync } = require('node:child_process');
const { readFileSync, writeFileSync } = require('node:fs');
const { cpus, totalmem } = require('node:os');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const autocannon = require('autocannon');
const { Client } = require('pg');

const ROOT = resolve(__dirname, '..');
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    // For working on one scenario: `--only friends --duration 5 --cpu-prof`.
    only: { type: 'string' },
    duration: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
    // Another build of the service, e.g. a platform experiment's dist/main.js.
    service: { type: 'string' },
    // Node/V8 flags for the service process, e.g. "--trace-gc".
    'node-flags': { type: 'string' },
  },
});
const SERVICE = values.service ? resolve(values.service) : join(ROOT, 'dist', 'main.js');
const QUICK = values.quick;
const SIZE = QUICK ? 2000 : 100000;
const WARMUP = QUICK ? 1 : 3;
const DURATION = values.duration ? Number(values.duration) : QUICK ? 3 : 15;
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

function start(script, port, extra = {}) {
  // The service as deployed (one log line per request, to stdout, which is
  // discarded here), with a rate limit the benchmark cannot reach.
  const env = { PATH: process.env.PATH, PORT: String(port), DATABASE_URL, SEED_DEMO: 'false', RATE_LIMIT: '1000000', ...extra };
  const service = script === SERVICE;
  const flags = [
    ...(service && values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : []),
    ...(service && values['node-flags'] ? values['node-flags'].split(' ') : []),
  ];
  const child = spawn(process.execPath, [...flags, script], { env, stdio: ['ignore', values['node-flags'] ? 'inherit' : 'ignore', 'inherit'] });
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
const ALL_SCENARIOS = [
  ['GET current identity', () => ({ path: API, tokens: ACCESS })],
  [`GET current identity (tenant of ${Math.max(50, Math.round(SIZE / 100))})`, () => ({ path: '/small-1/api/identity/v1', tokens: SMALL_ACCESS })],
  ['GET /{id} (admin app)', () => ({ paths: IDS.map((id) => `${API}/${id}`), tokens: APPS })],
  ['GET accounts', () => ({ path: `${API}/accounts`, tokens: ACCESS })],
  ['GET friends (20)', () => ({ path: `${API}/friends`, tokens: ACCESS })],
  ['GET friends of the 5,000-friend identity', () => ({ path: `${API}/u000000/friends`, tokens: APPS })],
  // Its latency on its own: at 64 connections the queue sets the p50.
  ['GET friends of the 5,000-friend identity, 1 connection', () => ({ path: `${API}/u000000/friends`, tokens: APPS, connections: 1 })],
  ['GET friends of the 5,000-friend identity, limit=100', () => ({ path: `${API}/u000000/friends?limit=100`, tokens: APPS })],
  ['GET roles', () => ({ path: `${API}/roles`, tokens: ACCESS })],
  ['PUT display name', () => ({ path: API, tokens: ACCESS, put: true })],
];
const SCENARIOS = ALL_SCENARIOS.filter(([name]) => !values.only || name.includes(values.only));

async function drive(port, make) {
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
  const r = await autocannon({ ...options, duration: DURATION });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
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

async function runAll(script, port, extra) {
  const child = await start(script, port, extra);
  const results = [];
  try {
    for (const [name, make] of SCENARIOS) {
      const figures = await drive(port, make);
      // The peak so far: the scenario that raised it is the one to look at.
      results.push([name, { ...figures, peakRssMb: peakRssMb(child.pid) }]);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
  return { results, peakRss: results.at(-1)?.[1].peakRssMb };
}

/** The baseline must answer exactly what the service answers. */
async function verifySameBodies() {
  const [service, baseline] = [await start(SERVICE, 3201), await start(join(__dirname, 'baseline.js'), 3202)];
  try {
    const { isDeepStrictEqual } = require('node:util');
    const checks = [
      [API, ACCESS[1]],
      [`${API}/accounts`, ACCESS[2]],
      [`${API}/friends`, ACCESS[3]],
      [`${API}/roles`, ACCESS[4]],
      [`${API}/${IDS[5]}`, APPS[0]],
      [`${API}/u000000/friends?limit=100`, APPS[1]],
    ];
    for (const [path, token] of checks) {
      const get = async (port) => (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
      const [a, b] = [await get(3201), await get(3202)];
      if (!isDeepStrictEqual(a, b)) throw new Error(`The baseline answers ${path} differently:\n${JSON.stringify(a)}\n${JSON.stringify(b)}`);
    }
  } finally {
    service.kill('SIGTERM');
    baseline.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 500));
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
  await verifySameBodies();
  const service = await runAll(SERVICE, 3201, {});
  const baseline = await runAll(join(__dirname, 'baseline.js'), 3202, {});
  const rows = service.results.map(([scenario, s], i) => {
    const b = baseline.results[i][1];
    return { scenario, service: s, baseline: b, ratio: Number((s.rps / b.rps).toFixed(2)) };
  });
  const machine = `${cpus().length} × ${cpus()[0].model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  console.log(`\nBenchmark (${QUICK ? 'quick' : 'full'}: ${SIZE} identities, 64 connections, ${DURATION} s per scenario) on ${machine}\n`);
  console.log('| Scenario | Service req/s | p50 ms | p99 ms | errors | Baseline req/s | p50 ms | p99 ms | errors | Ratio |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const { scenario, service: s, baseline: b, ratio } of rows)
    console.log(`| ${scenario} | ${s.rps} | ${s.p50} | ${s.p99} | ${s.errors} | ${b.rps} | ${b.p50} | ${b.p99} | ${b.errors} | ${ratio} |`);
  const peak = service.peakRss;
  console.log(`\nPeak RSS of the service: ${peak} MB (of the baseline: ${baseline.peakRss} MB); after each scenario: ${service.results.map(([, s]) => s.peakRssMb).join(', ')} MB`);
  if (values.only || values.duration || values.service || values['node-flags']) console.log('(a partial run: bench/results.json is left as it was)');
  else writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify({ machine, quick: QUICK, identities: SIZE, peakRssMb: peak, baselinePeakRssMb: baseline.peakRss, scenarios: rows }, null, 2)}\n`);
  if (rows.some((r) => r.service.errors > 0 || r.baseline.errors > 0)) {
    console.error('Some requests failed.');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
