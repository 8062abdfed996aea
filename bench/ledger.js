// The cost ledger (`npm run bench -- --ledger`): GET of the current
// identity, on the same data, against the production build with each layer
// of the request path switched off in turn (bench/ledger-server.js), with
// all of them off at once, with the rate limiter's counters on Redis, with
// tracing on, and against the conventional peer and the floor.
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
//
// In the same measured seconds, each server's V8 heap: the bytes it
// allocates per request, the bytes its scavenges promote to the old
// generation per request (what it keeps alive), and the collector's pauses
// per 1,000 requests, from a probe loaded into every server measured
// (bench/alloc-probe.js, with `--require`; the service never loads it).
const { createServer } = require('node:http');
const { isDeepStrictEqual } = require('node:util');
const { join } = require('node:path');
const { LAYERS } = require('./ledger-server');
const { SERVICE_NODE_FLAGS } = require('../scripts/service-flags');

const SERVER = join(__dirname, 'ledger-server.js');
const PROBE = join(__dirname, 'alloc-probe.js');
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
  {
    name: 'young-generation',
    what: `the deployed young generation (scripts/service-flags.js: ${SERVICE_NODE_FLAGS.filter((flag) => flag.startsWith('--max-semi-space-size')).join(' ')}), V8's default size instead`,
    off: [],
    nodeFlags: [],
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

/** The allocation probe of a server started with it: begin() opens its window, end() closes it and answers its figures. */
function probeOf(child) {
  const ask = (what) =>
    new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`The allocation probe did not answer ${what}`)), 10_000);
      const answer = (message) => {
        if (message?.allocProbe !== what) return;
        clearTimeout(timer);
        child.off('message', answer);
        done(message);
      };
      child.on('message', answer);
      child.send({ allocProbe: what });
    });
  return { begin: () => ask('begin'), end: () => ask('end') };
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
 * Runs the ledger. `harness` is the benchmark's: start(script, port, env,
 * flags, { ipc }) → child, drive(port, make, pid) → saturation figures,
 * openLoop(port, rate, pid, { probe }) → CPU per request, latencies and the
 * probe's figures, the scenario's `make`, a token and the API path to
 * compare answers with, the floor's and the peer's scripts, the rounds.
 */
async function ledger(harness) {
  const { floor, peer, only } = harness;
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
    // The conventional peer, beside the floor (`--only` leaves it out unless named).
    ...(peer && (!only || wanted.has('peer')) ? [{ name: 'peer', what: 'the conventional peer (bench/peer.js)', script: peer }] : []),
    { name: 'floor', what: 'the floor (bench/baseline.js)', script: floor },
  ];
  const sink = wanted.has('tracing') ? await spansSink() : undefined;
  try {
    return await measure(harness, configurations, { replicaUrl: replicaUrl.toString(), spansUrl: sink?.url });
  } finally {
    await sink?.close();
  }
}

/** Runs the configurations in rounds; the ledger of their CPU and allocation per request. */
async function measure(harness, configurations, places) {
  const { start, drive, openLoop, make, path, token, rounds, port } = harness;
  const runs = new Map(configurations.map((c) => [c.name, []]));
  let expected;
  let rate = harness.rate;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...configurations].reverse() : configurations;
    for (const configuration of order) {
      const env = typeof configuration.env === 'function' ? configuration.env(places) : configuration.env;
      // The service's configurations run with its deployed Node.js flags (or the row's own); the peer and the floor with Node's defaults.
      const nodeFlags = configuration.script ? [] : (configuration.nodeFlags ?? SERVICE_NODE_FLAGS);
      const child = await start(configuration.script ?? SERVER, port, { LEDGER_OFF: (configuration.off ?? []).join(','), ...env }, [...nodeFlags, '--require', PROBE], { ipc: true });
      try {
        const seen = await answer(port, path, token);
        expected ??= seen; // the service's: it runs first
        // The floor's and the peer's tags are their own; their bodies must be the same.
        const without = ({ etag, ...rest }) => rest;
        const same = configuration.script ? isDeepStrictEqual(without(seen), without(expected)) : isDeepStrictEqual(seen, expected);
        if (!same) throw new Error(`With ${configuration.name} the answer differs:\n${JSON.stringify(expected)}\n${JSON.stringify(seen)}`);
        // A saturation run first, which also warms the configuration up (the
        // first one's sets the fixed rate at half of it), unless the rate is
        // given (`--rate`, as CI's one short round is).
        if (harness.rate === undefined) {
          const saturated = await drive(port, make, child.pid);
          rate ??= Math.round(saturated.rps / 2);
        }
        const { latencies, serverCpuMs, mainThreadCpuMs, requests, probed } = await openLoop(port, rate, child.pid, { probe: probeOf(child) });
        if (latencies.errors) throw new Error(`${latencies.errors} requests failed with ${configuration.name}`);
        const run = {
          cpuUs: serverCpuMs * 1000,
          mainUs: mainThreadCpuMs * 1000,
          p99: latencies.p99,
          allocBytes: Math.round(probed.allocatedBytes / requests),
          promotedBytes: Math.round(probed.promotedBytes / requests),
          gcMsPer1000: Number(((probed.pauseMs * 1000) / requests).toFixed(2)),
          collections: probed.collections,
        };
        runs.get(configuration.name).push(run);
        process.stdout.write(
          `  round ${round + 1}: ${configuration.name}: ${Math.round(run.cpuUs)} µs/req (event loop ${Math.round(run.mainUs)}), p99 ${run.p99} ms, ` +
            `${kib(run.allocBytes)} KiB allocated/req (${kib(run.promotedBytes)} promoted), GC ${run.gcMsPer1000} ms/1,000 req\n`,
        );
      } finally {
        child.kill('SIGTERM');
        await new Promise((done) => child.once('exit', done));
      }
    }
  }
  const cpu = (name) => median(runs.get(name).map((r) => r.cpuUs));
  const main = (name) => median(runs.get(name).map((r) => r.mainUs));
  const p99 = (name) => Number(median(runs.get(name).map((r) => r.p99)).toFixed(1));
  const alloc = (name) => median(runs.get(name).map((r) => r.allocBytes));
  const promoted = (name) => median(runs.get(name).map((r) => r.promotedBytes));
  const gcMs = (name) => median(runs.get(name).map((r) => r.gcMsPer1000));
  // A configuration's heap: bytes allocated and promoted per request, GC pauses per 1,000 requests.
  const heap = (name) => ({ allocBytes: Math.round(alloc(name)), promotedBytes: Math.round(promoted(name)), gcMsPer1000: Number(gcMs(name).toFixed(2)) });
  const service = cpu('service');
  const gap = service - cpu('floor');
  const serviceCpu = runs.get('service').map((r) => r.cpuUs);
  const rows = configurations
    .filter((c) => !['service', 'peer', 'floor'].includes(c.name))
    .map((c) => {
      // A layer switched off saves its cost; a configuration with a base adds to it.
      const cost = c.base ? cpu(c.name) - cpu(c.base) : service - cpu(c.name);
      const mainCost = c.base ? main(c.name) - main(c.base) : main('service') - main(c.name);
      const allocCost = c.base ? alloc(c.name) - alloc(c.base) : alloc('service') - alloc(c.name);
      return {
        layer: c.name,
        what: c.what,
        cpuUs: Math.round(cpu(c.name)),
        mainUs: Math.round(main(c.name)),
        p99: p99(c.name),
        costUs: Math.round(cost),
        mainCostUs: Math.round(mainCost),
        shareOfGap: Number((cost / gap).toFixed(2)),
        ...heap(c.name),
        allocCostBytes: Math.round(allocCost),
      };
    });
  const serviceAlloc = runs.get('service').map((r) => r.allocBytes);
  const reference = (name) => ({ cpuUs: Math.round(cpu(name)), mainUs: Math.round(main(name)), p99: p99(name), ...heap(name) });
  return {
    rounds,
    rate,
    service: {
      cpuUs: Math.round(service),
      mainUs: Math.round(main('service')),
      p99: p99('service'),
      noiseUs: Math.round(Math.max(...serviceCpu) - Math.min(...serviceCpu)),
      ...heap('service'),
      allocNoiseBytes: Math.max(...serviceAlloc) - Math.min(...serviceAlloc),
    },
    ...(runs.has('peer') ? { peer: reference('peer') } : {}),
    floor: reference('floor'),
    runs: Object.fromEntries(runs),
    gapUs: Math.round(gap),
    rows,
  };
}

/** Bytes in KiB, one decimal. */
const kib = (bytes) => (bytes / 1024).toFixed(1);

/** The ledger as a Markdown table. */
function ledgerTable(result) {
  const { service, peer, floor } = result;
  const heap = (h) => `${kib(h.allocBytes)} KiB allocated per request, ${kib(h.promotedBytes)} KiB of it promoted, ${h.gcMsPer1000.toFixed(1)} ms of GC pauses per 1,000 requests`;
  const lines = [
    `At ${result.rate} req/s, medians of ${result.rounds} rounds: service ${service.cpuUs} µs of CPU per request, ${service.mainUs} of them on the event loop ` +
      `(p99 ${service.p99} ms; its runs ${service.noiseUs} µs apart at most, so a smaller cost is not resolved), floor ${floor.cpuUs} µs, ${floor.mainUs} on the event loop ` +
      `(p99 ${floor.p99} ms): a gap of ${result.gapUs} µs.` +
      (peer ? ` The peer: ${peer.cpuUs} µs, ${peer.mainUs} on the event loop (p99 ${peer.p99} ms).` : ''),
    '',
    `V8's heap, in the same seconds: the service ${heap(service)} (its runs ${kib(service.allocNoiseBytes)} KiB apart in allocation); ` +
      (peer ? `the peer ${heap(peer)}; ` : '') +
      `the floor ${heap(floor)}.`,
    '',
    '| Layer switched off (or configuration added) | µs/req so | on the event loop | p99 ms | its cost µs/req | on the event loop | share of the gap | KiB allocated/req so | its allocation KiB/req | promoted KiB/req so | GC ms/1,000 req so |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.layer}: ${r.what} | ${r.cpuUs} | ${r.mainUs} | ${r.p99} | ${r.costUs} | ${r.mainCostUs} | ${Math.round(r.shareOfGap * 100)} % | ` +
        `${kib(r.allocBytes)} | ${kib(r.allocCostBytes)} | ${kib(r.promotedBytes)} | ${r.gcMsPer1000.toFixed(1)} |`,
    ),
  ];
  return lines.join('\n');
}

module.exports = { ledger, ledgerTable };
