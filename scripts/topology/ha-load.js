// What the HA checks run while the formation fails over: a steady load on
// both instances, with every answer logged; a webhook receiver; and
// samplers of the instances' readiness and of the monitor's view of the
// formation. Each runs until stopped, bounded by the request timeout.
const { createServer } = require('node:http');
const { Webhook } = require('standardwebhooks');
const { sleep } = require('./processes');

const API = '/demo/api/identity/v1';
/** Past this an answer counts as a hang: twice the instances' database connect timeout, and some. */
const REQUEST_TIMEOUT_MS = 5_000;

// One writer per identity, so that each identity's writes are sequential
// and its last acknowledged value is known; the readers read the first two.
const WRITERS = [
  ['alice', 'demo-alice-access-token'],
  ['bob', 'demo-bob-access-token'],
  ['zoe', 'demo-zoe-access-token'],
];
// About 20 writes and 20 reads a second in all, when answers are quick.
const WRITE_PERIOD_MS = 150;
const READ_PERIOD_MS = 100;

/** One request: status, the times it was sent and answered (ms since `origin`), headers the checks read, and the body. */
async function send(origin, base, method, { token, body }) {
  const sent = Date.now() - origin;
  const headers = { authorization: `Bearer ${token}` };
  if (body) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${base}${API}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    return {
      method,
      sent,
      answered: Date.now() - origin,
      status: response.status,
      etag: response.headers.get('etag'),
      contentType: response.headers.get('content-type') ?? '',
      retryAfter: response.headers.get('retry-after'),
      body: safeJson(text),
    };
  } catch (error) {
    return {
      method,
      sent,
      answered: Date.now() - origin,
      status: 0,
      error: error.cause?.code ?? error.name,
    };
  }
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Runs `step` every `periodMs` (or at once after a slower answer) until `running()` is false. */
async function paced(periodMs, running, step) {
  while (running()) {
    const started = Date.now();
    await step();
    await sleep(Math.max(0, periodMs - (Date.now() - started)));
  }
}

/**
 * Starts the load: per writer identity a loop of PUTs of new display
 * names (`alice <label> 17`: no two alike across checks, so that every
 * write changes something), taking turns on the instances; per instance a
 * loop of GETs of the current identity (alice on the first, bob on the
 * second). Returns the log as it grows (every answer, with `identity`, and
 * `value` on writes) and `stop()`, which ends the loops and returns the
 * log in the order sent.
 */
function startLoad(instances, origin, label) {
  let running = true;
  const log = [];
  const writers = WRITERS.map(([identity, token]) => {
    let n = 0;
    return paced(
      WRITE_PERIOD_MS,
      () => running,
      async () => {
        const value = `${identity} ${label} ${++n}`;
        const instance = instances[n % instances.length];
        const answer = await send(origin, instance.url, 'PUT', {
          token,
          body: { displayName: value },
        });
        log.push({ ...answer, identity, value, instance: instance.role });
      },
    );
  });
  const readers = instances.map((instance, i) =>
    paced(
      READ_PERIOD_MS,
      () => running,
      async () => {
        const [identity, token] = WRITERS[i % WRITERS.length];
        const answer = await send(origin, instance.url, 'GET', { token });
        log.push({ ...answer, identity, instance: instance.role });
      },
    ),
  );
  return {
    log,
    stop: async () => {
      running = false;
      await Promise.all([...writers, ...readers]);
      return log.sort((a, b) => a.sent - b.sent);
    },
  };
}

/** Samples `probe` every `periodMs` until stopped; returns [{ at, value }] (ms since `origin`). */
function sampler(origin, periodMs, probe) {
  let running = true;
  const samples = [];
  const loop = paced(
    periodMs,
    () => running,
    async () => {
      const at = Date.now() - origin;
      samples.push({
        at,
        value: await probe().catch((e) => `error ${e.message}`),
      });
    },
  );
  return async () => {
    running = false;
    await loop;
    return samples;
  };
}

/** What /health/ready answers: its status and the body's `status` (`503`, `200 ok`, `200 degraded`). */
async function readiness(base) {
  try {
    const response = await fetch(`${base}/health/ready`, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = safeJson(await response.text());
    return `${response.status}${body?.status ? ` ${body.status}` : ''}`;
  } catch (error) {
    return `no answer (${error.cause?.code ?? error.name})`;
  }
}

/**
 * A webhook receiver on loopback: verifies each delivery with the
 * subscription's secret (set once it is known) and keeps, in arrival
 * order, its webhook-id, event id, identity and ETag; answers 204.
 */
async function startReceiver() {
  const deliveries = [];
  const refused = [];
  let verifier;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        if (!verifier) throw new Error('no secret yet');
        verifier.verify(body, req.headers);
      } catch (error) {
        refused.push(error.message);
        res.writeHead(400).end();
        return;
      }
      const { type, data } = JSON.parse(body);
      deliveries.push({
        id: req.headers['webhook-id'],
        type,
        eventId: Number(data.eventId),
        identityId: data.identityId,
        etag: data.etag,
        at: Date.now(),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve, reject) =>
    server.once('error', reject).listen(0, '127.0.0.1', resolve),
  );
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    deliveries,
    refused,
    useSecret: (secret) => (verifier = new Webhook(secret)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

module.exports = {
  REQUEST_TIMEOUT_MS,
  WRITERS,
  readiness,
  sampler,
  startLoad,
  startReceiver,
};
