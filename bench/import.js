#!/usr/bin/env node
// Times the import of a generated 10,000-identity tenant (10,000 accounts,
// 10,000 friendships: bench/generated-tenant.js) through the command line,
// as an operator runs it, on PostgreSQL (a database of its own on the local
// server, or BENCH_DATABASE_URL's server) and on the embedded database (a
// directory of its own). Each database takes RUNS imports of a new tenant;
// the time is the command's own ("in N ms", the import without the
// process's start). Writes bench/import-results.json, which the figures in
// docs/operations.md come from (scripts/docs-figures.js).
//
//   npm run bench:import [-- --runs 3]
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { cpus, tmpdir, totalmem } = require('node:os');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { Client } = require('pg');
const { generatedTenant } = require('./generated-tenant');

const ROOT = resolve(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const IDENTITIES = 10_000;
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);
const server = new URL(process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const DATABASE = 'identity_bench_import';

/** Runs the command line with `env`; its stdout. */
const cli = (args, env) =>
  execFileSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

async function admin(sql) {
  const client = new Client({ connectionString: new URL('/postgres', server).href });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** RUNS imports of a new tenant each; the command's own times. */
function importTimes(env, work, label) {
  const times = [];
  for (let run = 1; run <= RUNS; run++) {
    const file = join(work, `tenant-${run}.json`);
    writeFileSync(file, JSON.stringify(generatedTenant(`import-${run}`, IDENTITIES)));
    const out = cli(['import', file], env);
    const ms = Number(/ in (\d+) ms/.exec(out)?.[1]);
    if (!Number.isFinite(ms)) throw new Error(`${label}: no time in "${out.trim()}"`);
    console.log(`${label}, run ${run}: ${ms} ms`);
    times.push(ms);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { runsMs: times, medianMs: sorted[Math.floor(sorted.length / 2)] };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'identity-import-bench-'));
  const databaseUrl = new URL(`/${DATABASE}`, server).href;
  try {
    await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${DATABASE}`);
    cli(['migrate'], { DATABASE_URL: databaseUrl });
    const postgres = importTimes({ DATABASE_URL: databaseUrl }, work, 'PostgreSQL');
    const embedded = importTimes({ DATA_DIR: join(work, 'pglite') }, work, 'embedded');
    const results = {
      machine: `${cpus().length} × ${cpus()[0].model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
      date: new Date().toISOString().slice(0, 10),
      identities: IDENTITIES,
      accounts: IDENTITIES,
      friendships: IDENTITIES,
      postgres,
      embedded,
    };
    writeFileSync(join(__dirname, 'import-results.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(`Median: ${postgres.medianMs} ms on PostgreSQL, ${embedded.medianMs} ms on the embedded database (bench/import-results.json)`);
    // docs/operations.md's import figures are this run's.
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'docs-figures.js')], { stdio: 'inherit' });
  } finally {
    rmSync(work, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`).catch(() => undefined);
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
