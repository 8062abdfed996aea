// The few ways the script talks to the topology: SQL, PgBouncer's admin
// console, Redis commands and HTTP requests, each bounded in time so that a
// check can fail but never hang.
const { Client } = require('pg');
const Redis = require('ioredis');

const SQL_TIMEOUT_MS = 5_000;

/** Runs one statement on a connection of its own; returns the rows. */
async function sql(url, text, params) {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: SQL_TIMEOUT_MS,
    query_timeout: SQL_TIMEOUT_MS,
  });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** A URL for the same server and user, another database. */
function withDatabase(url, database) {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}

/** A SHOW command on PgBouncer's admin console (simple protocol only, hence no parameters). */
const pgbouncerShow = (pgbouncerUrl, what) =>
  sql(withDatabase(pgbouncerUrl, 'pgbouncer'), `SHOW ${what}`);

async function redisCommand(url, command, ...args) {
  const redis = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 2_000,
  });
  // Failures reach the caller through the command; the event would only repeat them.
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await redis.call(command, ...args);
  } finally {
    redis.disconnect();
  }
}

/**
 * One HTTP request; never throws. Answers { status, etag, ms }, status 0
 * with `error` when no answer came (refused, reset, or not within `timeoutMs`).
 */
async function request(
  base,
  method,
  path,
  { token, body, ifMatch, timeoutMs = 5_000 } = {},
) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (ifMatch) headers['if-match'] = ifMatch;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      ms: performance.now() - started,
    };
  } catch (error) {
    return {
      status: 0,
      error: error.cause?.code ?? error.name,
      ms: performance.now() - started,
    };
  }
}

/** The body of a GET as text; empty when the server does not answer. */
async function requestText(base, path, timeoutMs = 1_000) {
  try {
    const response = await fetch(`${base}${path}`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    return await response.text();
  } catch {
    return '';
  }
}

module.exports = {
  pgbouncerShow,
  redisCommand,
  request,
  requestText,
  sql,
  withDatabase,
};
