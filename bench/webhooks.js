#!/usr/bin/env node
// Webhook delivery under load: 10,000 PUTs of display names (64
// connections, 1,000 identities in turn) against the production build,
// first with no subscription, then with two subscribed endpoints on
// loopback. Reports the writes' throughput both times, the events
// delivered per second, and the end-to-end lag (commit to arrival) p50,
// p99 and max. Uses the benchmark's data (bench/run.js makes it).
//
//   npm run bench:webhooks                 # on identity_bench (100,000 identities)
//   npm run bench:webhooks -- --quick      # on identity_bench_quick
//   npm run bench:webhooks -- --writes 2000
const { spawn, execFileSync } = require('node:child_process');
const { createServer } = require('node:http');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const autocannon = require('autocannon');
const { Webhook } = require('standardwebhooks');
const { SERVICE_NODE_FLAGS } = require('../scripts/service-flags');

const ROOT = resolve(__dirname, '..');
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    writes: { type: 'string', default: '10000' },
  },
});
const WRITES = Number(values.writes);
const SIZE = values.quick ? 2000 : 100000;
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgresql://postgres@127.0.0.1:5432/identity_bench${values.quick ? '_quick' : ''}`;
const PORT = 3211;
const pad = (i) => String(i).padStart(6, '0');
const ACCESS = Array.from({ length: 1000 }, (_, k) => `bench-bench-access-${pad(Math.floor((k * SIZE) / 1000))}`);

const cli = (...args) =>
  execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();

function startService() {
  const env = { PATH: process.env.PATH, PORT: String(PORT), DATABASE_URL, SEED_DEMO: 'false', RATE_LIMIT: '1000000', WEBHOOK_POLL_MS: '100' };
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, join(ROOT, 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((ready, fail) => {
    const timer = setInterval(async () => {
      const up = await fetch(`http://127.0.0.1:${PORT}/health/live`).then((r) => r.ok, () => false);
      if (up) {
        clearInterval(timer);
        ready(child);
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(timer);
      fail(new Error(`the service exited with ${code}`));
    });
  });
}

/** An endpoint that verifies each delivery and records its lag (ms) by webhook-id. */
async function receiver() {
  const lags = new Map();
  const state = { secret: undefined };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        new Webhook(state.secret).verify(body, req.headers);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const id = req.headers['webhook-id'];
      if (!lags.has(id)) lags.set(id, Date.now() - Date.parse(JSON.parse(body).timestamp));
      res.writeHead(204).end();
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { lags, state, server, url: `http://127.0.0.1:${server.address().port}/hooks` };
}

async function writes(label) {
  let n = 0;
  let t = 0;
  const started = Date.now();
  const r = await autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: 64,
    amount: WRITES,
    requests: [
      {
        method: 'PUT',
        setupRequest: (req) => ({
          ...req,
          path: '/bench/api/identity/v1',
          headers: { authorization: `Bearer ${ACCESS[t++ % ACCESS.length]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ displayName: `${label} ${n++}` }),
        }),
      },
    ],
  });
  const seconds = (Date.now() - started) / 1000;
  return { rps: Math.round(WRITES / seconds), p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx, seconds };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const admin = cli('token', 'create', '--tenant', 'bench', '--app', 'bench-webhooks', '--scope', 'tenant:admin');
  const service = await startService();
  const made = [];
  try {
    const without = await writes('Plain');
    const endpoints = [await receiver(), await receiver()];
    for (const endpoint of endpoints) {
      const res = await fetch(`http://127.0.0.1:${PORT}/bench/api/admin/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: endpoint.url, eventTypes: ['identity.updated'] }),
      });
      const body = await res.json();
      endpoint.state.secret = body.secret;
      made.push(body.id);
    }
    const started = Date.now();
    const withHooks = await writes('Hooked');
    // Every write is an event: wait until both endpoints have them all.
    while (endpoints.some((e) => e.lags.size < WRITES) && Date.now() - started < 600_000)
      await new Promise((done) => setTimeout(done, 50));
    const deliveredSeconds = (Date.now() - started) / 1000;
    const lags = endpoints.flatMap((e) => [...e.lags.values()]).sort((a, b) => a - b);
    const delivered = endpoints.reduce((sum, e) => sum + e.lags.size, 0);
    console.log(`\nWebhooks: ${WRITES} PUTs at 64 connections, two subscribed endpoints on loopback (${SIZE} identities)\n`);
    console.log('| | writes/s | write p99 (ms) | errors |');
    console.log('|---|---|---|---|');
    console.log(`| no subscription | ${without.rps} | ${without.p99} | ${without.errors} |`);
    console.log(`| two subscriptions | ${withHooks.rps} | ${withHooks.p99} | ${withHooks.errors} |`);
    console.log(`\nDelivered ${delivered} events (${delivered / 2} to each endpoint) in ${deliveredSeconds.toFixed(1)} s from the first write: ${Math.round(delivered / deliveredSeconds)} events/s;`);
    console.log(`lag from commit to arrival: p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms.`);
    for (const endpoint of endpoints) endpoint.server.close();
  } finally {
    for (const id of made)
      await fetch(`http://127.0.0.1:${PORT}/bench/api/admin/v1/webhooks/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${admin}` },
      }).catch(() => undefined);
    cli('token', 'revoke', '--tenant', 'bench', admin);
    service.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
