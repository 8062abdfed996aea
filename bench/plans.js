#!/usr/bin/env node
// Plan choices for the service's prepared statements on skewed tenants. Each
// read of the request path runs through the service's own repositories (the
// production build) on one connection, for the benchmark's 100,000-identity
// tenant and for one of its small ones, under each plan_cache_mode:
//
//   auto                PostgreSQL's default: five custom plans, then the
//                       generic one if it is estimated no dearer
//   force_custom_plan   planned again for each execution's values
//   force_generic_plan  planned once per connection, for any values
//
// It prints the mean time of a call (a round trip, sequential, over rotating
// ids) and, under auto, how many executions PostgreSQL ran on a generic plan.
//
//   npm run bench:plans            # after `npm run bench` made the data
//   npm run bench:plans -- --calls 500
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = resolve(__dirname, '..');
const dist = (module) => require(join(ROOT, 'dist', module));
const { loadConfig } = dist('config/app-config');
const { Database } = dist('database/database');
const { hashTokenSecret } = dist('auth/token-secret');
const { AccessRepository } = dist('auth/access.repository');
const { AccountsRepository } = dist('accounts/accounts.repository');
const { FriendsRepository } = dist('friends/friends.repository');
const { RolesRepository } = dist('roles/roles.repository');

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' } } });
const CALLS = Number(values.calls);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/identity_bench';
const MODES = ['auto', 'force_custom_plan', 'force_generic_plan'];
const pad = (i) => String(i).padStart(6, '0');

/** 200 identities spread over a tenant of `size`: their ids and access tokens' hashes. */
function sample(tenant, size) {
  return Array.from({ length: 200 }, (_, k) => {
    const i = Math.floor((k * size) / 200);
    return { tenant, id: `u${pad(i)}`, hash: hashTokenSecret(`bench-${tenant}-access-${pad(i)}`) };
  });
}

async function tenantSizes() {
  const database = await open('auto');
  try {
    const rows = await database.withSession((s) =>
      s.query(`SELECT tenant_id, count(*)::int AS n FROM identity WHERE tenant_id IN ('bench', 'small-1') GROUP BY 1`),
    );
    return Object.fromEntries(rows.map((r) => [r.tenant_id, r.n]));
  } finally {
    await database.close();
  }
}

function open(mode) {
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c plan_cache_mode=${mode}`);
  return Database.connect(
    loadConfig({ DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: '1', LOG_LEVEL: 'warn' }),
  );
}

/** The reads of the request path, as [name, call with one sampled identity]. */
function cases(database) {
  const access = new AccessRepository(database);
  const friends = new FriendsRepository(database);
  return [
    ['token with caller and identity', (s) => access.findTokenCaller(s.hash)],
    ['identity by id (access facts)', (s) => access.accessFacts(s.tenant, s.id, 'u000001')],
    ['missing id (merged-into lookup)', (s) => access.accessFacts(s.tenant, `gone-${s.id}`, null)],
    ['accounts by provider', (s) => new AccountsRepository(database).findProviderAccounts(s.tenant, s.id)],
    ['friends (about 20)', (s) => friends.findFriends(s.tenant, s.id, {})],
    ['friends, page of 10', (s) => friends.findFriends(s.tenant, s.id, { limit: 10 })],
    ['roles', (s) => new RolesRepository(database).findRoleNames(s.tenant, s.id, {})],
  ];
}

/** Mean milliseconds per call, and under auto the executions on a generic plan. */
async function measure(mode, caseIndex, identities) {
  const database = await open(mode);
  try {
    const [, call] = cases(database)[caseIndex];
    for (let k = 0; k < 20; k++) await call(identities[k % identities.length]);
    const started = process.hrtime.bigint();
    for (let k = 0; k < CALLS; k++) await call(identities[k % identities.length]);
    const ms = Number(process.hrtime.bigint() - started) / 1e6 / CALLS;
    const [plans] = await database.withSession((s) =>
      s.query('SELECT sum(generic_plans)::int AS generic, sum(custom_plans)::int AS custom FROM pg_prepared_statements'),
    );
    return { ms, ...plans };
  } finally {
    await database.close();
  }
}

async function main() {
  const sizes = await tenantSizes();
  if (!sizes.bench) throw new Error(`No benchmark data in ${new URL(DATABASE_URL).pathname.slice(1)}: run npm run bench first.`);
  const tenants = [
    ['bench', sizes.bench],
    ['small-1', sizes['small-1']],
  ];
  console.log(`Mean ms per call over ${CALLS} calls, one connection; under auto, executions on a generic plan / custom plans\n`);
  console.log(`| Statement | Tenant | ${MODES.join(' | ')} |`);
  console.log(`|---|---|${'---|'.repeat(MODES.length)}`);
  const names = cases(null).map(([name]) => name);
  for (const [index, name] of names.entries()) {
    for (const [tenant, size] of tenants) {
      const identities = sample(tenant, size);
      const cells = [];
      for (const mode of MODES) {
        const { ms, generic, custom } = await measure(mode, index, identities);
        cells.push(mode === 'auto' ? `${ms.toFixed(3)} (${generic}/${custom})` : ms.toFixed(3));
      }
      console.log(`| ${name} | ${tenant} (${size}) | ${cells.join(' | ')} |`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
