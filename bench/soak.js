#!/usr/bin/env node
// Sustained load against the production build: a mix of every read endpoint
// and PUT, from 200 connections, for --duration seconds (default 60).
// Reports errors (must be 0), latency percentiles, and memory at the start
// and the end. Exits non-zero when a request failed or memory kept growing.
//
//   npm run soak                       # embedded database, 60 s
//   DATABASE_URL=postgresql://… npm run soak -- --duration 300
const { spawn } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const autocannon = require('autocannon');
const { SERVICE_NODE_FLAGS } = require('../scripts/service-flags');

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '200' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
// Below the ephemeral range (32768 and up on Linux), where any outgoing
// connection of the machine may hold a port the server then cannot bind.
const port = String(20000 + Math.floor(Math.random() * 12000));
const base = `http://127.0.0.1:${port}`;
const API = '/demo/api/identity/v1';
const READERS = ['demo-alice-access-token', 'demo-bob-access-token', 'demo-zoe-access-token'];

function startServer() {
  const env = {
    PATH: process.env.PATH,
    PORT: port,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    RATE_LIMIT: '1000000',
    ...(process.env.DATABASE_URL
      ? { DATABASE_URL: process.env.DATABASE_URL }
      : { DATA_DIR: join(mkdtempSync(join(tmpdir(), 'identity-soak-')), 'pglite') }),
  };
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, resolve(__dirname, '..', 'dist', 'main.js')], { env });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((ready, fail) => {
    const timer = setInterval(async () => {
      const live = await fetch(`${base}/health/ready`).then((r) => r.ok, () => false);
      if (live) {
        clearInterval(timer);
        ready({ child, log: () => output });
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(timer);
      fail(new Error(`server exited (${code}):\n${output}`));
    });
  });
}

async function residentMemory() {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)[1]);
}

/** Every read endpoint for several callers, and a PUT: one request each turn. */
function requestMix() {
  const mix = [];
  for (const token of READERS) {
    const headers = { authorization: `Bearer ${token}` };
    for (const path of ['', '/accounts', '/friends', '/roles', '/friends?limit=1'])
      mix.push({ method: 'GET', path: `${API}${path}`, headers });
  }
  const admin = { authorization: 'Bearer demo-admin-app-token' };
  for (const path of ['/alice', '/bob/accounts', '/alice/friends', '/zoe/roles'])
    mix.push({ method: 'GET', path: `${API}${path}`, headers: admin });
  let n = 0;
  mix.push({
    method: 'PUT',
    path: API,
    headers: { authorization: 'Bearer demo-bob-access-token', 'content-type': 'application/json' },
    setupRequest: (req) => ({ ...req, body: JSON.stringify({ displayName: `Bob ${n++ % 1000}` }) }),
  });
  return mix;
}

/** The service's warnings and errors, each distinct message once, so a failed run says why. */
function printServerErrors(output) {
  const seen = new Map();
  for (const line of output.split('\n')) {
    if (!line.trim()) continue;
    let key = line;
    try {
      const entry = JSON.parse(line);
      key = `${entry.context ?? ''}: ${entry.msg ?? ''}${entry.err ? ` (${entry.err.type}: ${entry.err.message})` : ''}`;
    } catch {}
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const [message, count] of [...seen].slice(0, 20)) console.error(`  service: ${message} ×${count}`);
}

async function main() {
  const { child: server, log } = await startServer();
  const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  try {
    // Warm up, then measure memory before and during the run.
    await autocannon({ url: base, connections: 20, duration: 2, requests: requestMix() });
    const samples = [await residentMemory()];
    const sampler = setInterval(async () => samples.push(await residentMemory().catch(() => NaN)), 2000);
    const result = await autocannon({ url: base, connections, duration, requests: requestMix() });
    clearInterval(sampler);
    samples.push(await residentMemory());
    const failed = result.errors + result.timeouts + result.non2xx;
    if (result.non2xx) console.log(JSON.stringify(result.statusCodeStats));
    const first = samples[0];
    const last = samples[samples.length - 1];
    // Warm-up (JIT, pools, caches) takes memory in the first half; a leak
    // keeps taking it through the second half.
    const half = samples.slice(Math.floor(samples.length / 2)).filter(Number.isFinite);
    const growing =
      half.length >= 3 &&
      half.every((s, i) => i === 0 || s > half[i - 1]) &&
      half[half.length - 1] > half[0] * 1.2 + 20 * 1024 * 1024;
    console.log(
      [
        `Soak: ${duration} s, ${connections} connections, ${result.requests.total} requests (${Math.round(result.requests.average)}/s)`,
        `  errors: ${failed} (socket ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx})`,
        `  latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
        `  memory (RSS): start ${mb(first)}, end ${mb(last)}, peak ${mb(Math.max(...samples.filter(Number.isFinite)))}`,
      ].join('\n'),
    );
    if (failed > 0 || growing) {
      if (failed > 0) printServerErrors(log());
      console.error(failed > 0 ? 'FAILED: some requests failed' : 'FAILED: memory kept growing');
      process.exitCode = 1;
    }
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
