// The checks of the HA topology (docs/topology.md, "High availability"):
// a planned switchover, the primary's postmaster killed, and the primary's
// node lost, each under a steady load from both instances. A check passes
// when every answer is a success or a 503 problem+json with Retry-After
// within the request timeout, writes come back, no acknowledged write is
// lost, every change-log event is delivered to a webhook in order per
// identity, the formation settles again, and both instances' readiness
// answered 200 or 503 throughout and 200 at the end. Each prints a PASS or
// FAIL line and its figures, and leaves the formation a primary and a
// secondary, so that `check` can run again.
const { execFile } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { promisify } = require('node:util');
const { sql } = require('./clients');
const { serviceUrl } = require('./components');
const {
  HA_SERVICES,
  autoctl,
  formationState,
  groupMembers,
  healthy,
  nodeUrl,
  pgDir,
  postmasterOf,
  timeoutsInForce,
  waitHealthy,
  writable,
} = require('./ha');
const {
  REQUEST_TIMEOUT_MS,
  WRITERS,
  readiness,
  sampler,
  startLoad,
  startReceiver,
} = require('./ha-load');
const { sleep, waitFor } = require('./processes');
const { PROJECT } = require('./state');

const CLI = join(PROJECT, 'dist', 'cli.js');
/** Load before the event, so that each check starts from a steady state. */
const STEADY_MS = 1_500;
/** The longest a check waits for the formation to settle after its event (with pg_auto_failover's default timeouts, far longer). */
const RECOVERY_MS = { shortened: 45_000, defaults: 150_000 };
/** The longest the webhook backlog may take to drain once the load stopped. */
const DRAIN_MS = 20_000;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const at = (ms) => `${ms < 0 ? '−' : '+'}${(Math.abs(ms) / 1000).toFixed(1)} s`;

/** Counts of each status, as `200 ×12, 503 ×3`. */
function statusCounts(answers) {
  const counts = new Map();
  for (const { status, error } of answers) {
    const key = status || `no answer (${error})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([s, n]) => `${s} ×${n}`).join(', ') || 'none';
}

/** Consecutive equal samples as one run: `+t value` (with `×n`, the number of samples, when `counted`). */
function runs(samples, eventAt, counted) {
  const out = [];
  for (const { at: t, value } of samples) {
    const last = out.at(-1);
    if (last?.value === value) last.n++;
    else out.push({ value, n: 1, from: t - eventAt });
  }
  return out
    .map((r) => `${at(r.from)} ${r.value}${counted ? ` ×${r.n}` : ''}`)
    .join(' → ');
}

function context(topology) {
  return {
    topology,
    recoveryMs: topology.state.ha.defaultTimeouts
      ? RECOVERY_MS.defaults
      : RECOVERY_MS.shortened,
    instances: HA_SERVICES.map((role) => ({
      role,
      url: serviceUrl(topology.process(role).port),
    })),
  };
}

/** The node taking writes now, as the monitor says. */
async function primaryNode(ctx) {
  const node = writable(await formationState(ctx.topology));
  if (!node) throw new Error('the formation has no primary');
  return node;
}

async function primarySql(ctx, text, params) {
  return sql(nodeUrl((await primaryNode(ctx)).port), text, params);
}

/** The command line on the current primary's own URL; its standard output. */
async function cli(ctx, args) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CLI, ...args],
    {
      cwd: PROJECT,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: nodeUrl((await primaryNode(ctx)).port),
        EGRESS_PRIVATE_NETWORK_TENANTS: 'demo',
        LOG_LEVEL: 'warn',
      },
    },
  );
  return stdout;
}

/** One line per node: its states and its postmaster's PID, for the formation's timeline. */
async function formationLine(ctx) {
  const nodes = await formationState(ctx.topology);
  return nodes
    .map((n) => {
      const pid = postmasterOf(pgDir(ctx.topology, n.name));
      const state =
        n.current === n.assigned ? n.current : `${n.current}→${n.assigned}`;
      return `${n.name} ${state} (${pid ? `pid ${pid}` : 'no postmaster'})`;
    })
    .join(', ');
}

/**
 * Runs `act` under load: the load and the samplers start, the formation
 * runs steadily for a while, `act` runs (the event) and returns what to
 * say of it (`what()`), when the formation has settled (`settled(nodes,
 * ms since the event)`) and what to do once the load has stopped
 * (`afterLoad()`, if anything); the load goes on until it has settled,
 * and a moment more. Returns what the checks judge.
 */
async function throughEvent(ctx, name, act) {
  await waitHealthy(ctx.topology, ctx.recoveryMs);
  const before = await primaryNode(ctx);
  const [{ id: firstEvent }] = await primarySql(
    ctx,
    'SELECT coalesce(max(id), 0)::text AS id FROM identity_event',
  );
  const origin = Date.now();
  const load = startLoad(ctx.instances, origin, name);
  const stopReadiness = ctx.instances.map((i) =>
    sampler(origin, 250, () => readiness(i.url)),
  );
  const stopFormation = sampler(origin, 250, () => formationLine(ctx));
  const event = { name, firstEvent: Number(firstEvent), before };
  let afterLoad;
  try {
    await sleep(STEADY_MS);
    event.eventAt = Date.now() - origin;
    const sinceEvent = () => Date.now() - origin - event.eventAt;
    const acted = await act(before, { log: load.log, eventAt: event.eventAt });
    afterLoad = acted.afterLoad;
    const { what, settled } = acted;
    event.recovered = await waitFor(
      'the formation settled again',
      async () =>
        (await settled(await formationState(ctx.topology), sinceEvent())) &&
        Date.now() - origin,
      { timeoutMs: ctx.recoveryMs },
    ).catch(() => null);
    await sleep(500);
    event.log = await load.stop();
    await afterLoad?.();
    event.what = what();
  } finally {
    event.log ??= await load.stop();
    await afterLoad?.();
    event.readiness = await Promise.all(stopReadiness.map((stop) => stop()));
    event.formation = await stopFormation();
  }
  event.logFile = ctx.topology.path(`${name}.jsonl`);
  writeFileSync(
    event.logFile,
    event.log.map((a) => JSON.stringify(a)).join('\n') + '\n',
  );
  event.after = writable(await formationState(ctx.topology));
  return event;
}

/** Settled after a failover: a primary and a secondary, the primary another node than before. */
const failedOver = (before) => (nodes) =>
  healthy(nodes) && writable(nodes).name !== before.name;

const ok = (answer) => answer.status >= 200 && answer.status < 300;

/**
 * When requests of one kind failed, from those answered after the event
 * (times from the event): the first failure, the first success after it,
 * the last failure, and the first success sent after that one (back for
 * good), with the number failed; null when none failed.
 */
function outageOf(answers, eventAt) {
  const after = answers.filter((p) => p.answered >= eventAt);
  const failed = after.filter((p) => !ok(p));
  if (!failed.length) return null;
  const [first, last] = [failed[0], failed.at(-1)];
  const success = (since) => after.find((p) => ok(p) && p.sent > since.sent);
  const time = (answer, field) => (answer ? answer[field] - eventAt : null);
  return {
    first: time(first, 'sent'),
    firstSuccess: time(success(first), 'answered'),
    last: time(last, 'sent'),
    back: time(success(last), 'answered'),
    failed: failed.length,
  };
}

/**
 * Acknowledged writes the database no longer holds, two ways. By value:
 * each identity has one writer, whose names count up (`alice switchover
 * 17`), so the name it holds must be the last acknowledged one or a later
 * one whose answer was not a success. By version: each acknowledged PUT's ETag must
 * be the ETag a change-log event of the database announced (webhooks
 * carry it), which holds while every event was delivered.
 */
async function lostWrites(ctx, label, puts, deliveredById, databaseIds) {
  const identities = WRITERS.map(([id]) => id);
  const rows = await primarySql(
    ctx,
    `SELECT identity_id AS id, display_name AS name FROM identity
      WHERE tenant_id = 'demo' AND identity_id = ANY($1)`,
    [identities],
  );
  const counter = (name) =>
    Number(new RegExp(` ${label} (\\d+)$`).exec(name ?? '')?.[1] ?? 0);
  const held = Object.fromEntries(rows.map((r) => [r.id, counter(r.name)]));
  const acked = puts.filter((p) => p.status >= 200 && p.status < 300);
  const byValue = acked.filter((p) => counter(p.value) > held[p.identity]);
  const announced = new Set(
    [...deliveredById.values()]
      .filter((d) => databaseIds.has(d.eventId))
      .map((d) => d.etag),
  );
  const byVersion = acked.filter((p) => !announced.has(p.etag));
  return {
    acked: acked.length,
    byValue: byValue.length,
    byVersion: byVersion.length,
    held: identities.map((id) => `${id} ${held[id]}`).join(', '),
  };
}

/**
 * Waits until every change-log event after `firstEvent` that the database
 * holds has been delivered, or DRAIN_MS passes; then judges the
 * deliveries: all of them, none the database does not hold, each
 * identity's in order of first arrival.
 */
async function webhooksDelivered(ctx, receiver, firstEvent) {
  const rows = await primarySql(
    ctx,
    `SELECT id::text AS id FROM identity_event WHERE tenant_id = 'demo' AND id > $1 ORDER BY id`,
    [firstEvent],
  );
  const databaseIds = new Set(rows.map((r) => Number(r.id)));
  const mine = () => receiver.deliveries.filter((d) => d.eventId > firstEvent);
  const started = Date.now();
  await waitFor(
    'webhook deliveries',
    async () => {
      const got = new Set(mine().map((d) => d.eventId));
      return [...databaseIds].every((id) => got.has(id));
    },
    { timeoutMs: DRAIN_MS },
  ).catch(() => undefined);
  const deliveredById = new Map();
  for (const d of mine())
    if (!deliveredById.has(d.eventId)) deliveredById.set(d.eventId, d);
  const missing = [...databaseIds].filter((id) => !deliveredById.has(id));
  const phantom = [...deliveredById.keys()].filter(
    (id) => !databaseIds.has(id),
  );
  const lastSeen = new Map();
  let outOfOrder = 0;
  for (const d of deliveredById.values()) {
    if ((lastSeen.get(d.identityId) ?? 0) > d.eventId) outOfOrder++;
    lastSeen.set(d.identityId, d.eventId);
  }
  return {
    databaseIds,
    deliveredById,
    missing: missing.length,
    phantom: phantom.length,
    outOfOrder,
    again: mine().length - deliveredById.size,
    drainMs: Date.now() - started,
  };
}

/** Whether an answer is one the service may give during a failover: a success, or a 503 problem+json with Retry-After. */
const expected = (a) =>
  ok(a) ||
  (a.status === 503 &&
    a.contentType.startsWith('application/problem+json') &&
    a.retryAfter !== null);

/**
 * Judges one event and prints a PASS or FAIL line, then a line for each
 * figure (`← FAIL` marks those that failed it); true when it passed.
 */
async function judge(ctx, receiver, name, event, started) {
  const { log, eventAt } = event;
  const unexpected = log.filter((a) => !expected(a));
  const puts = log.filter((a) => a.method === 'PUT');
  const gets = log.filter((a) => a.method === 'GET');
  const outage = outageOf(puts, eventAt);
  const readOutage = outageOf(gets, eventAt);
  const webhooks = await webhooksDelivered(ctx, receiver, event.firstEvent);
  const lost = await lostWrites(
    ctx,
    event.name,
    puts,
    webhooks.deliveredById,
    webhooks.databaseIds,
  );
  const readinessGood = event.readiness.map(
    (samples) =>
      samples.every((s) => /^(200|503)\b/.test(s.value)) &&
      /^200\b/.test(samples.at(-1)?.value ?? ''),
  );
  const good = {
    requests: unexpected.length === 0,
    writes: !outage || outage.back !== null,
    lost: lost.byValue === 0 && lost.byVersion === 0,
    webhooks:
      webhooks.missing === 0 &&
      webhooks.phantom === 0 &&
      webhooks.outOfOrder === 0,
    formation: event.recovered != null,
  };
  const pass =
    Object.values(good).every(Boolean) && readinessGood.every(Boolean);
  const mark = (fine) => (fine ? '' : '  ← FAIL');
  const when = (ms) => (ms === null ? 'never' : at(ms));
  console.log(
    `${pass ? 'PASS' : 'FAIL'}  ${name} (${seconds(Date.now() - started)}) — ${event.what ?? 'the event did not run to its end'}`,
  );
  console.log(
    `      requests: GET ${statusCounts(gets)}; PUT ${statusCounts(puts)}; ` +
      `other than 2xx or 503 problem+json with Retry-After within ${seconds(REQUEST_TIMEOUT_MS)}: ` +
      `${unexpected.length ? statusCounts(unexpected) : 'none'}${mark(good.requests)}`,
  );
  const told = (o) =>
    o
      ? `${o.failed} failed: failing from ${when(o.first)}, first success ${when(o.firstSuccess)}, ` +
        `last failure ${when(o.last)}, back for good ${when(o.back)}`
      : 'none failed';
  console.log(`      writes: ${told(outage)}${mark(good.writes)}`);
  console.log(`      reads: ${told(readOutage)}`);
  console.log(
    `      acknowledged writes lost: ${lost.byValue} of ${lost.acked} by value (counters held: ${lost.held}), ` +
      `${lost.byVersion} by version${mark(good.lost)}`,
  );
  console.log(
    `      webhook events: ${webhooks.deliveredById.size - webhooks.phantom} of ${webhooks.databaseIds.size} delivered, ` +
      `${webhooks.missing} missing, ${webhooks.phantom} not in the database, ${webhooks.outOfOrder} out of order per identity, ` +
      `${webhooks.again} delivered again; ${seconds(webhooks.drainMs)} after the load stopped${mark(good.webhooks)}`,
  );
  console.log(
    `      formation: primary ${event.before.name} → ${event.after?.name ?? 'none'}, ` +
      `settled ${event.recovered == null ? 'never' : at(event.recovered - eventAt)}: ` +
      `${runs(event.formation, eventAt, false)}${mark(good.formation)}`,
  );
  event.readiness.forEach((samples, i) =>
    console.log(
      `      readiness ${ctx.instances[i].role}: ${runs(samples, eventAt, true)}${mark(readinessGood[i])}`,
    ),
  );
  console.log(`      every answer: ${event.logFile}`);
  return pass;
}

async function switchover(ctx) {
  return throughEvent(ctx, 'switchover', async (before) => {
    const started = Date.now();
    await autoctl(ctx.topology, [
      'perform',
      'switchover',
      '--pgdata',
      pgDir(ctx.topology, 'monitor'),
      '--formation',
      'default',
      '--group',
      '0',
    ]);
    const returned = Date.now() - started;
    return {
      what: () =>
        `pg_autoctl perform switchover from ${before.name} (returned after ${seconds(returned)})`,
      settled: failedOver(before),
    };
  });
}

/**
 * The primary's postmaster killed with SIGKILL, and nothing else: what
 * pg_autoctl does then is what this check reports. Its postgres service
 * restarts a postmaster that died within a second, in place, as the
 * primary; the monitor fails over only when the keeper's once-a-second
 * look found PostgreSQL down first. Settled: with the same primary, its
 * postmaster back and no failover begun for 10 s; after a failover, the
 * formation whole again with the other node as primary.
 */
async function postmasterKilled(ctx) {
  return throughEvent(ctx, 'postmaster-killed', async (before) => {
    const dataDir = pgDir(ctx.topology, before.name);
    const pid = postmasterOf(dataDir);
    if (!pid) throw new Error(`no postmaster found for ${before.name}`);
    process.kill(pid, 'SIGKILL');
    let restarted;
    let failover;
    return {
      what: () =>
        `${before.name}'s postmaster (pid ${pid}) killed with SIGKILL; ` +
        (restarted
          ? `pg_autoctl restarted it in place (pid ${restarted.pid}) at ${at(restarted.at)}`
          : 'not restarted in place') +
        (failover
          ? `; the monitor began a failover at ${at(failover)}`
          : '; no failover'),
      settled: (nodes, since) => {
        const now = postmasterOf(dataDir);
        if (now && now !== pid) restarted ??= { pid: now, at: since };
        const old = nodes.find((n) => n.name === before.name);
        if (old.assigned !== 'primary') failover ??= since;
        return failover
          ? failedOver(before)(nodes)
          : since >= 10_000 && restarted && healthy(nodes);
      },
    };
  });
}

/**
 * The primary's node lost: its pg_autoctl processes (the keeper and the
 * service that restarts PostgreSQL) held with SIGSTOP and its postmaster
 * killed with SIGKILL, as when the machine stalls or fails. The keeper no
 * longer reports and the monitor's health checks find nothing: the monitor
 * calls the node unhealthy, waits for the primary to demote itself, and
 * promotes the standby. Once writes are back the node returns (SIGCONT),
 * still under load, as after a stall or a reboot; settled once it has
 * rejoined the formation as the new primary's standby.
 */
async function primaryLost(ctx) {
  return throughEvent(ctx, 'primary-lost', async (before, load) => {
    const entry = ctx.topology.process(before.name);
    const dataDir = pgDir(ctx.topology, before.name);
    const pid = postmasterOf(dataDir);
    if (!pid) throw new Error(`no postmaster found for ${before.name}`);
    const keepers = groupMembers(entry.pid).filter((member) => member !== pid);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      for (const keeper of keepers) process.kill(keeper, 'SIGCONT');
    };
    for (const keeper of keepers) process.kill(keeper, 'SIGSTOP');
    try {
      process.kill(pid, 'SIGKILL');
    } catch (error) {
      release();
      throw error;
    }
    let promoted;
    let released;
    let restarted;
    let rejoined;
    return {
      what: () =>
        `${before.name} lost: its pg_autoctl processes (pids ${keepers.join(', ')}) stopped, its postmaster (pid ${pid}) killed; ` +
        `the standby promoted at ${promoted == null ? 'never' : at(promoted)}; ` +
        `${before.name} back at ${released == null ? 'never' : at(released)}` +
        (restarted
          ? `: pg_autoctl restarted PostgreSQL there at once, as it was (pid ${restarted.pid}, ${restarted.state} to the monitor), at ${at(restarted.at)}`
          : '') +
        `; rejoined as the standby at ${rejoined == null ? 'never' : at(rejoined)}`,
      settled: (nodes, since) => {
        const primary = writable(nodes);
        if (primary && primary.name !== before.name) promoted ??= since;
        if (held) {
          const writesBack =
            promoted != null &&
            load.log.some(
              (a) =>
                a.method === 'PUT' && ok(a) && a.sent - load.eventAt > promoted,
            );
          if (writesBack) {
            release();
            released = since;
          }
          return false;
        }
        const now = postmasterOf(dataDir);
        const old = nodes.find((n) => n.name === before.name);
        if (now && !restarted && old.current !== 'catchingup')
          restarted = { pid: now, state: old.current, at: since };
        if (failedOver(before)(nodes)) rejoined ??= since;
        return rejoined != null;
      },
      afterLoad: async () => release(),
    };
  });
}

const CHECKS = [
  ['planned switchover under load', switchover],
  ["the primary's postmaster killed under load", postmasterKilled],
  ["the primary's node lost under load", primaryLost],
];

/** Runs the checks with one webhook subscription; true when all passed. */
async function runHaChecks(topology) {
  const ctx = context(topology);
  console.log(`Timeouts: ${(await timeoutsInForce(topology)).join('; ')}`);
  const receiver = await startReceiver();
  let subscription;
  let passed = true;
  try {
    subscription = JSON.parse(
      await cli(ctx, [
        'webhook',
        'add',
        '--tenant',
        'demo',
        '--url',
        receiver.url,
      ]),
    );
    receiver.useSecret(subscription.secret);
    for (const [name, check] of CHECKS) {
      const started = Date.now();
      try {
        const event = await check(ctx);
        passed = (await judge(ctx, receiver, name, event, started)) && passed;
      } catch (error) {
        console.log(
          `FAIL  ${name} (${seconds(Date.now() - started)}) — did not run to its end: ${error.message}`,
        );
        passed = false;
      }
    }
    writeFileSync(
      topology.path('webhooks.jsonl'),
      receiver.deliveries.map((d) => JSON.stringify(d)).join('\n') + '\n',
    );
    if (receiver.refused.length)
      console.log(
        `      deliveries refused by the receiver: ${receiver.refused.length} (${receiver.refused[0]})`,
      );
  } finally {
    if (subscription)
      await cli(ctx, [
        'webhook',
        'remove',
        '--tenant',
        'demo',
        subscription.id,
      ]).catch((error) =>
        console.log(
          `could not remove the webhook subscription: ${error.message}`,
        ),
      );
    await receiver.close();
  }
  return passed;
}

module.exports = { runHaChecks };
