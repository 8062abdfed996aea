#!/usr/bin/env node
// Generates the benchmark's tenants deterministically from a seed, in the
// import format, and imports them into PostgreSQL (BENCH_DATABASE_URL, or a
// database "identity_bench" on the local server, created when missing):
// one tenant of 100,000 identities (6 providers, about 2 accounts and 20
// friends each, one identity with 5,000 friends, 12 roles) and nine small
// tenants, with tokens for a sample of identities and apps.
//
//   npm run bench:data [-- --identities 100000 --seed 42]
const { execFileSync } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { Client } = require('pg');

const ROOT = resolve(__dirname, '..');
const DATA = join(__dirname, 'data');
const { values } = parseArgs({
  options: { identities: { type: 'string', default: '100000' }, seed: { type: 'string', default: '42' } },
});
const SIZE = Number(values.identities);
const SMALL = Math.max(50, Math.round(SIZE / 100));
const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/identity_bench';

/** mulberry32: a small deterministic PRNG. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROVIDERS = ['password', 'google', 'github', 'microsoft', 'apple', 'facebook'];
const ROLES = Array.from({ length: 12 }, (_, i) => (i === 0 ? 'admin' : `role-${String(i).padStart(2, '0')}`));
const pad = (i) => String(i).padStart(6, '0');

function tenant(id, size, random, { hub = false } = {}) {
  const identities = [];
  for (let i = 0; i < size; i++) {
    const identityId = `u${pad(i)}`;
    const accounts = [];
    const count = random() < 0.5 ? 1 : random() < 0.5 ? 2 : 3;
    for (let j = 0; j < count; j++) {
      const provider = j === 0 ? PROVIDERS[Math.floor(random() * PROVIDERS.length)] : 'google';
      if (accounts.some((a) => a.accountProviderId === provider && provider !== 'google')) continue;
      accounts.push({ accountId: `a${pad(i)}-${j}`, accountProviderId: provider, issuedUserId: `${identityId}-${j}`, displayName: `User ${i}`, emailAddress: `${identityId}@bench.example` });
    }
    const friends = new Set();
    // Ten listed here, ten more list this one: about twenty each.
    while (friends.size < Math.min(10, size - 1)) {
      const f = Math.floor(random() * size);
      if (f !== i) friends.add(`u${pad(f)}`);
    }
    identities.push({
      identityId,
      displayName: `User ${pad(Math.floor(random() * size))}`,
      userName: identityId,
      emailAddress: `${identityId}@bench.example`,
      emailAddressVerified: random() < 0.8,
      givenName: 'Bench',
      surname: pad(i),
      locality: 'en-GB',
      lastLogin: '2026-11-20T08:15:30.250',
      smallPictures: [`https://pictures.bench.example/${identityId}/s.jpg`],
      properties: { index: String(i) },
      roles: [ROLES[1 + (i % 11)], ...(i % 1000 === 0 ? ['admin'] : [])],
      friends: [...friends],
      accounts,
    });
  }
  if (hub) {
    // One identity with 5,000 friends.
    const hubFriends = new Set(identities[0].friends);
    for (let k = 1; hubFriends.size < Math.min(5000, size - 1); k++) hubFriends.add(`u${pad(k)}`);
    identities[0].friends = [...hubFriends];
  }
  const tokens = [];
  for (let k = 0; k < Math.min(1000, size); k++) {
    const i = Math.floor((k * size) / Math.min(1000, size));
    tokens.push({ token: `bench-${id}-access-${pad(i)}`, type: 'access', identityId: `u${pad(i)}`, accountId: identities[i].accounts[0].accountId });
  }
  for (let k = 0; k < 10; k++) tokens.push({ token: `bench-${id}-app-${pad(k)}`, type: 'app', appId: `app-${k}`, scopes: ['identities:read', 'identities:delete'] });
  return {
    tenant: { id, name: `Bench ${id}`, adminRoles: ['admin'] },
    accountProviders: PROVIDERS.map((p) => ({ accountProviderId: p, displayName: p, signInUrl: `https://login.bench.example/${p}`, allowsMultipleAccounts: p === 'google' })),
    identities,
    tokens,
  };
}

async function ensureDatabase() {
  const url = new URL(URL_);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
}

async function main() {
  const random = prng(Number(values.seed));
  mkdirSync(DATA, { recursive: true });
  await ensureDatabase();
  const files = [['bench', tenant('bench', SIZE, random, { hub: true })]];
  for (let t = 1; t <= 9; t++) files.push([`small-${t}`, tenant(`small-${t}`, SMALL, random)]);
  for (const [id, data] of files) {
    const file = join(DATA, `${id}.json`);
    writeFileSync(file, JSON.stringify(data));
    const started = Date.now();
    const out = execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'import', file, '--replace'], {
      env: { ...process.env, DATABASE_URL: URL_, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    console.log(`${out.trim()} (${((Date.now() - started) / 1000).toFixed(1)} s with process start)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
