// The cost ledger (`npm run bench -- --ledger`): GET of the current
// identity, on the same data, against the production build with each layer
// of the request path switched off in turn (bench/ledger-server.js), with
// all of them off at once, with the rate limiter's counters on Redis, with
// tracing on, and against the floor.
//
// How it measures: each configuration runs as a fresh process, is brought
// to its steady state at saturation (code optimised, heap grown), then
// driven at one fixed rate, open loop — half what the service serves at
// saturation — so that all batch their work alike (at saturation a cheaper
// server also batches more per event-loop turn, and its CPU per request
// falls for that reason too). Its CPU per request is read from /proc. The
// configurations run in rounds, the order reversed each round so that a
// drift of the machine spreads evenly; a configuration's figure is the
// median of its rounds, and a layer's cost is the service's median minus
// that. The service's own runs give the noise: a cost within their range
// (highest minus lowest) is not resolved.
const { createServer } = require('node:http');
const { isDeepStrictEqual } = require('node:util');
const { join } = require('node:path');
const { LAYERS } = require('./ledger-server');

const SERVER = join(__dirname, 'ledger-server.js');
// A Redis database of the benchmark's own; its keys expire with the window.
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14';

const CONFIGURATIONS = [
  { name: 'service', off: [] },
  // A layer marked `added` is not the service's: its row is what it would add.
  ...Object.entries(LAYERS).map(([name, { what, added }]) => ({ name, what, off: [name], ...(added ? { base: 'service' } : {}) })),
  {
    name: 'all off',
    what: 'every layer above off or replaced at once',
    off: Object.entries(LAYERS)
      .filter(([, { added }]) => !added)
      .map(([name]) => name),
  },
  { name: 'redis', what: "the rate limiter's counters on Redis instead of in memory (a cost added)", env: { REDIS_URL }, base: 'service' },
  {
    name: 'replica',
    what: "reads routed to a replica, with the write positions on Redis: the read-your-writes lookup, the replica's choice, the switch of pool (a cost added to the redis row's)",
    env: ({ replicaUrl }) => ({ REDIS_URL, DATABASE_REPLICA_URL: replicaUrl }),
    base: 'redis',
  },
  {
    name: 'tracing',
    what: "tracing on: spans of the request, its pool checkouts and statements, batched and exported over OTLP/HTTP (protobuf) to a sink on loopback, and the log line's trace ids (a cost added)",
    env: ({ spansUrl }) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: spansUrl }),
    base: 'service',
  },
];

/**
 * Where the tracing configuration's spans go: an OTLP/HTTP endpoint in this
 * process (whose CPU is not the server's) that reads each export and drops it.
 */
async function spansSink() {
  const sink = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()));
  await new Promise((done) => sink.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${sink.address().port}`, close: () => new Promise((done) => sink.close(done).closeAllConnections()) };
}

/** The q-quantile, interpolated between the nearest ranks. */
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
};
const median = (values) => quantile(values, 0.5);

/** What a client sees of GET current, less what may differ between runs or is the layer's own (request id, headers a switched-off layer sets). */
async function answer(port, path, token) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, etag: res.headers.get('etag'), type: res.headers.get('content-type'), body: await res.json() };
}

/**
 * Runs the ledger. `harness` is the benchmark's: start(script, port, env) →
 * child, drive(port, make, pid) → saturation figures, openLoop(port, rate,
 * pid) → CPU per request and latencies, the scenario's `make`, a token and
 * the API path to compare answers with, the floor's script, the rounds.
 */
async function ledger(harness) {
  const { floor, only } = harness;
  // `replica`'s replica: the same database, through sessions that read
  // their replay position as the primary's current one (bench/run.js
  // installs that function): a standby that is never behind.
  const replicaUrl = new URL(harness.databaseUrl);
  replicaUrl.searchParams.set('options', '-c search_path=public,pg_catalog');
  // `--only a,b`: those layers, beside the service, the floor and the configurations theirs add to.
  const wanted = new Set(only ? ['service', ...only.split(',')] : CONFIGURATIONS.map((c) => c.name));
  for (const c of CONFIGURATIONS) if (wanted.has(c.name) && c.base) wanted.add(c.base);
  const configurations = [
    ...CONFIGURATIONS.filter((c) => wanted.has(c.name)),
    // `--before <dist>`: another version's build, whole (what a change saved is its row's cost).
    ...(harness.before
      ? [{ name: 'before', what: 'the build given with --before, every layer on (a cost added: what the changes since saved)', env: { LEDGER_DIST: harness.before }, base: 'service' }]
      : []),
    { name: 'floor', what: 'the floor (bench/baseline.js)', script: floor },
  ];
  const sink = wanted.has('tracing') ? await spansSink() : undefined;
  try {
    return await measure(harness, configurations, { replicaUrl: replicaUrl.toString(), spansUrl: sink?.url });
  } finally {
    await sink?.close();
  }
}

/** Runs the configurations in rounds; the ledger of their CPU per request. */
async function measure(harness, configurations, places) {
  const { start, drive, openLoop, make, path, token, rounds, port } = harness;
  const runs = new Map(configurations.map((c) => [c.name, []]));
  let expected;
  let rate = harness.rate;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...configurations].reverse() : configurations;
    for (const configuration of order) {
      const env = typeof configuration.env === 'function' ? configuration.env(places) : configuration.env;
      const child = await start(configuration.script ?? SERVER, port, { LEDGER_OFF: (configuration.off ?? []).join(','), ...env });
      try {
        const seen = await answer(port, path, token);
        expected ??= seen; // the service's: it runs first
        // The floor's tag is its own (the version); its body must be the same.
        const without = ({ etag, ...rest }) => rest;
        const same = configuration.script ? isDeepStrictEqual(without(seen), without(expected)) : isDeepStrictEqual(seen, expected);
        if (!same) throw new Error(`With ${configuration.name} the answer differs:\n${JSON.stringify(expected)}\n${JSON.stringify(seen)}`);
        const saturated = await drive(port, make, child.pid);
        rate ??= Math.round(saturated.rps / 2);
        const { latencies, serverCpuMs, mainThreadCpuMs } = await openLoop(port, rate, child.pid);
        if (latencies.errors) throw new Error(`${latencies.errors} requests failed with ${configuration.name}`);
        const run = { cpuUs: serverCpuMs * 1000, mainUs: mainThreadCpuMs * 1000, p99: latencies.p99 };
        runs.get(configuration.name).push(run);
        process.stdout.write(`  round ${round + 1}: ${configuration.name}: ${Math.round(run.cpuUs)} µs/req (event loop ${Math.round(run.mainUs)}), p99 ${run.p99} ms\n`);
      } finally {
        child.kill('SIGTERM');
        await new Promise((done) => child.once('exit', done));
      }
    }
  }
  const cpu = (name) => median(runs.get(name).map((r) => r.cpuUs));
  const main = (name) => median(runs.get(name).map((r) => r.mainUs));
  const p99 = (name) => median(runs.get(name).map((r) => r.p99));
  const service = cpu('service');
  const gap = service - cpu('floor');
  const serviceCpu = runs.get('service').map((r) => r.cpuUs);
  const rows = configurations
    .filter((c) => c.name !== 'service' && c.name !== 'floor')
    .map((c) => {
      // A layer switched off saves its cost; a configuration with a base adds to it.
      const cost = c.base ? cpu(c.name) - cpu(c.base) : service - cpu(c.name);
      const mainCost = c.base ? main(c.name) - main(c.base) : main('service') - main(c.name);
      return {
        layer: c.name,
        what: c.what,
        cpuUs: Math.round(cpu(c.name)),
        mainUs: Math.round(main(c.name)),
        p99: p99(c.name),
        costUs: Math.round(cost),
        mainCostUs: Math.round(mainCost),
        shareOfGap: Number((cost / gap).toFixed(2)),
      };
    });
  return {
    rounds,
    rate,
    service: {
      cpuUs: Math.round(service),
      mainUs: Math.round(main('service')),
      p99: p99('service'),
      noiseUs: Math.round(Math.max(...serviceCpu) - Math.min(...serviceCpu)),
    },
    floor: { cpuUs: Math.round(cpu('floor')), mainUs: Math.round(main('floor')), p99: p99('floor') },
    runs: Object.fromEntries(runs),
    gapUs: Math.round(gap),
    rows,
  };
}

/** The ledger as a Markdown table. */
function ledgerTable(result) {
  const lines = [
    `At ${result.rate} req/s, medians of ${result.rounds} rounds: service ${result.service.cpuUs} µs of CPU per request, ${result.service.mainUs} of them on the event loop ` +
      `(p99 ${result.service.p99} ms; its runs ${result.service.noiseUs} µs apart at most, so a smaller cost is not resolved), floor ${result.floor.cpuUs} µs, ${result.floor.mainUs} on the event loop ` +
      `(p99 ${result.floor.p99} ms): a gap of ${result.gapUs} µs.`,
    '',
    '| Layer switched off (or configuration added) | µs/req so | on the event loop | p99 ms | its cost µs/req | on the event loop | share of the gap |',
    '|---|---|---|---|---|---|---|',
    ...result.rows.map(
      (r) => `| ${r.layer}: ${r.what} | ${r.cpuUs} | ${r.mainUs} | ${r.p99} | ${r.costUs} | ${r.mainCostUs} | ${Math.round(r.shareOfGap * 100)} % |`,
    ),
  ];
  return lines.join('\n');
}

module.exports = { ledger, ledgerTable };
