#!/usr/bin/env node
// The measured figures of docs/operations.md, written from the runs they
// come from: capacity from the benchmark's full run (bench/results.json),
// import times from the import benchmark (bench/import-results.json). Each
// sits between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->`.
//
//   node scripts/docs-figures.js          rewrites the blocks
//   node scripts/docs-figures.js --check  fails when a block differs from its run (CI)
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const DOC = join(ROOT, 'docs', 'operations.md');
const read = (file) => JSON.parse(readFileSync(join(ROOT, 'bench', file), 'utf8'));

/** The share of a core an instance or PostgreSQL is best run at. */
const UTILISATION = 0.7;
/** The reads of the mix, in equal parts. */
const MIX = ['GET current identity', 'GET /{id} (admin app)', 'GET accounts', 'GET friends (20)', 'GET roles'];
const ROWS = [...MIX, 'PUT display name'];
const HUB = 'GET friends of the 5,000-friend identity';

const n = (value) => Math.round(value).toLocaleString('en-US');
/** Rounded to `step` (10, 50, 100), with thousands separators. */
const about = (value, step) => n(Math.round(value / step) * step);
const ms = (value) => value.toFixed(2);
const seconds = (millis) => (millis / 1000).toFixed(1);

function capacity() {
  const bench = read('results.json');
  const byName = new Map(bench.scenarios.map((s) => [s.scenario, s.service]));
  const cost = (name) => {
    const s = byName.get(name);
    if (!s) throw new Error(`bench/results.json has no scenario "${name}"`);
    return s;
  };
  const mean = (key) => MIX.reduce((sum, name) => sum + cost(name)[key], 0) / MIX.length;
  const mix = { serverCpuMs: mean('serverCpuMs'), postgresCpuMs: mean('postgresCpuMs') };
  const put = cost('PUT display name');
  const hub = cost(HUB);
  const row = (name, s) =>
    `| ${name} | ${ms(s.serverCpuMs)} | ${about(1000 / s.serverCpuMs, 10)} | ${ms(s.postgresCpuMs)} | ${about(1000 / s.postgresCpuMs, 10)} |`;
  const instanceReads = (UTILISATION * 1000) / mix.serverCpuMs;
  const instancePuts = (UTILISATION * 1000) / put.serverCpuMs;
  const coreReads = (UTILISATION * 1000) / mix.postgresCpuMs;
  const perCore = mix.serverCpuMs / mix.postgresCpuMs;
  const instances = (cores) => Math.floor(perCore * cores);
  return `Measured on the benchmark's ${n(bench.identities)}-identity tenant,
prepared statements, 64 connections (the full run of ${bench.date} on
${bench.machine}, where the service, PostgreSQL and the load generator share
the cores; a dedicated core does somewhat better):

| Request | Service CPU ms | its requests/s per core | PostgreSQL CPU ms | its requests/s per core |
|---|---|---|---|---|
${ROWS.map((name) => row(name, cost(name))).join('\n')}
${row('read mix (the five GETs in equal parts)', mix)}

An instance is one Node.js process: it uses one core, and is best run at
about ${UTILISATION * 100} % of it so that its p99 stays near its p50 (the queue grows
steeply beyond). So one instance serves about ${about(instanceReads, 50)} requests per second of
that read mix, and about ${about(instancePuts, 50)} PUTs. PostgreSQL serves about ${about(coreReads, 100)} reads of
the mix per core at the same ${UTILISATION * 100} %: **one PostgreSQL core feeds about
${perCore.toFixed(1)} instances** (${ms(mix.serverCpuMs)} ms of service CPU per read against ${ms(mix.postgresCpuMs)} ms of
PostgreSQL's). The friend list of an identity with 5,000 friends is the
exception: ${n(hub.serverCpuMs)} ms of service CPU and ${n(hub.postgresCpuMs)} ms of PostgreSQL's each, so a
client that asks for it often should page it (\`limit\`).

**How many instances a primary and N replicas feed.** With replicas, GETs
read from them and the primary keeps the writes, the conditional GETs, the
reads of the few milliseconds after a tenant's write and the reads no
replica can serve. With a primary of C cores and N replicas of C cores
each, at ${UTILISATION * 100} % utilisation:

- reads: about ${about(coreReads, 100)} × C × (N + 1) per second in all, less what the
  writes take on the primary (a PUT costs PostgreSQL about ${(put.postgresCpuMs / mix.postgresCpuMs).toFixed(1)} times a read);
  plan for the primary and the remaining replicas to carry the load of one
  lost replica, since its reads then move to them;
- instances: about ${perCore.toFixed(1)} × C × (N + 1), one core each. For example a 4-core
  primary with two 4-core replicas feeds about ${instances(12)} instances (some
  ${about(coreReads * 12, 1000)} reads per second) before PostgreSQL, not the service, is what more
  traffic waits on; without replicas the same primary feeds about ${instances(4)}.

Writes (PUT, DELETE, imports) all go to the primary, and a tenant's writes
are ordered one at a time (its change log's lock): a single tenant's write
rate is bounded by the time that lock is held, one statement per write,
whatever the number of instances: the benchmark's PUTs, all to one tenant,
reached ${n(put.rps)} per second at ${ms(put.postgresCpuMs)} ms of PostgreSQL CPU each.`;
}

function imports() {
  const run = read('import-results.json');
  const range = (r) => {
    const low = Math.min(...r.runsMs);
    const high = Math.max(...r.runsMs);
    return seconds(low) === seconds(high) ? `${seconds(low)} s` : `${seconds(low)}–${seconds(high)} s`;
  };
  return `Import speed (\`npm run bench:import\`, the run of ${run.date} on ${run.machine}):
a ${n(run.identities)}-identity tenant (${n(run.accounts)} accounts, ${n(run.friendships)} friendships) in
${seconds(run.postgres.medianMs)} s on PostgreSQL and ${seconds(run.embedded.medianMs)} s on the embedded database, the median
of ${run.postgres.runsMs.length} imports each (${range(run.postgres)} and ${range(run.embedded)}), the command's own time
without its process's start. Rows travel to the database as one JSON
parameter per 5,000 rows, unpacked by \`jsonb_to_recordset\`.`;
}

const BLOCKS = { capacity, import: imports };

const doc = readFileSync(DOC, 'utf8');
let next = doc;
for (const [name, render] of Object.entries(BLOCKS)) {
  const pattern = new RegExp(`(<!-- figures:${name} -->\\n)[\\s\\S]*?(\\n<!-- /figures:${name} -->)`);
  if (!pattern.test(next)) throw new Error(`docs/operations.md has no figures:${name} block`);
  next = next.replace(pattern, (_, open, close) => `${open}${render()}${close}`);
}
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error(
      'docs/operations.md: its figures differ from bench/results.json or bench/import-results.json; run node scripts/docs-figures.js',
    );
    process.exit(1);
  }
  console.log('docs/operations.md: its figures are those of bench/results.json and bench/import-results.json');
} else if (next !== doc) {
  writeFileSync(DOC, next);
  console.log('docs/operations.md: figures rewritten');
}
