// What one statement of the request path costs through each way of running
// it (`npm run bench:executors`): today's runner on the pool (pg, named
// statements), Kysely's own PostgreSQL dialect on a pool alike (unnamed,
// and with the same names), Prisma's client on its driver adapter
// ($queryRawUnsafe, the way a transaction's statements run), and on an in-process PGlite today's
// adapter runner against PGlite's own query (what a Kysely dialect for
// PGlite would run). Each way runs the same statement on the same rows,
// one at a time and 16 at once; the figure is the process's CPU per query
// (user + system), the median of five runs of 4,000 queries (500 on
// PGlite) after a warm-up. PostgreSQL's own CPU is the same for all and not counted.
'use strict';
const { Pool, Client } = require('pg');
const { Kysely, PostgresDialect, CompiledQuery } = require('kysely');
const { PGlite } = require('@electric-sql/pglite');
const { PrismaPg } = require('@prisma/adapter-pg');
const { PrismaPGlite } = require('pglite-prisma-adapter');
const { poolStatements } = require('../dist/database/pool-statements');
const { adapterStatements } = require('../dist/database/adapter-query');
const { statementNames } = require('../dist/database/statement-names');
const { PrismaClient } = require('../dist/generated/prisma/client');

const ADMIN_URL =
  process.env.BENCH_ADMIN_URL ??
  'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'identity_bench_executors';
const QUERIES = 4000;
/** PGlite runs a query in this process, about ten times slower. */
const PGLITE_QUERIES = 500;
const RUNS = 5;
const TEXT =
  'select "identity_id" as "identityId", "user_name" as "userName", "version" from "identity" where "tenant_id" = $1 and "identity_id" = $2';
const SCHEMA = `CREATE TABLE identity (tenant_id text, identity_id text, user_name text,
  version bigint, PRIMARY KEY (tenant_id, identity_id));
  INSERT INTO identity SELECT 't', 'i' || n, 'user' || n, n FROM generate_series(1, 2000) AS n;`;
const values = (i) => ['t', `i${(i % 2000) + 1}`];

async function cpuPerQuery(run, concurrency, queries) {
  const measure = async (count) => {
    const before = process.cpuUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) await run(next++);
      }),
    );
    const { user, system } = process.cpuUsage(before);
    return (user + system) / count;
  };
  await measure(queries / 2);
  const runs = [];
  for (let r = 0; r < RUNS; r++) runs.push(await measure(queries));
  runs.sort((a, b) => a - b);
  return runs[Math.floor(RUNS / 2)];
}

/** A pool whose clients run each text under the name the runners give it. */
function namingPool(pool, names) {
  const named = new WeakSet();
  return {
    connect: async () => {
      const client = await pool.connect();
      if (named.has(client)) return client;
      named.add(client);
      const query = client.query.bind(client);
      client.query = (text, params) =>
        typeof text === 'string' && params
          ? query({
              name: names(text, params.length) || undefined,
              text,
              values: params,
            })
          : query(text, params);
      return client;
    },
    end: () => pool.end(),
  };
}

async function postgresWays(url) {
  // Each way has a pool of its own, configured alike (the service's pool).
  const pools = [];
  const pool = () => {
    const made = new Pool({ connectionString: url, max: 4 });
    pools.push(made);
    return made;
  };
  const runner = poolStatements(pool(), statementNames());
  const kysely = new Kysely({ dialect: new PostgresDialect({ pool: pool() }) });
  const named = new Kysely({
    dialect: new PostgresDialect({
      pool: namingPool(pool(), statementNames()),
    }),
  });
  const names = statementNames();
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool(), {
      statementNameGenerator: ({ sql, args }) => names(sql, args.length),
    }),
  });
  const ways = {
    'runner on the pool (pg, named): Database.read.rows': (i) =>
      runner.rows(TEXT, values(i)),
    "Kysely's PostgresDialect on a pool (unnamed)": (i) =>
      kysely.executeQuery(CompiledQuery.raw(TEXT, values(i))),
    "Kysely's PostgresDialect, the same names": (i) =>
      named.executeQuery(CompiledQuery.raw(TEXT, values(i))),
    "Prisma's client, $queryRawUnsafe (how a transaction's statements run)": (
      i,
    ) => prisma.$queryRawUnsafe(TEXT, ...values(i)),
  };
  return {
    ways,
    queries: QUERIES,
    close: async () => {
      await prisma.$disconnect();
      await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    },
  };
}

async function pgliteWays() {
  const pglite = await PGlite.create();
  await pglite.exec(SCHEMA);
  const adapter = await new PrismaPGlite(pglite).connect();
  const runner = adapterStatements(adapter);
  return {
    ways: {
      'PGlite: runner on the driver adapter: Database.read.rows': (i) =>
        runner.rows(TEXT, values(i)),
      'PGlite: its own query (what a Kysely PGlite dialect runs)': (i) =>
        pglite.query(TEXT, values(i)),
    },
    queries: PGLITE_QUERIES,
    close: () => pglite.close(),
  };
}

async function main() {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  const setup = new Client({ connectionString: url.href });
  await setup.connect();
  await setup.query(SCHEMA);
  await setup.end();
  const results = [];
  try {
    for (const make of [() => postgresWays(url.href), pgliteWays]) {
      const { ways, queries, close } = await make();
      for (const [name, run] of Object.entries(ways))
        results.push({
          way: name,
          one: await cpuPerQuery(run, 1, queries),
          sixteen: await cpuPerQuery(run, 16, queries),
        });
      await close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await admin.end();
  }
  console.log(
    '| way | µs CPU/query, 1 at a time | 16 at once |\n|---|---|---|',
  );
  for (const r of results)
    console.log(`| ${r.way} | ${r.one.toFixed(1)} | ${r.sixteen.toFixed(1)} |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
