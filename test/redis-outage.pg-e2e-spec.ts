import { Logger } from '@nestjs/common';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { RedisCounters } from '../src/ops/rate-limit/counters';
import { COUNTERS } from '../src/ops/rate-limit/rate-limiter';
import { API, bearer, example, TOKENS } from './support/example';
import { useTestApp } from './support/test-app';
import { until } from './support/until';
import { freePort } from './support/free-port';

// A Redis of the test's own on loopback, paused as a network partition would
// (the process stopped, its connections open): the service must not wait
// for it.
describe('a Redis that stops answering', () => {
  let redis: ChildProcess;
  let port: number;
  const warnings: string[] = [];

  beforeAll(async () => {
    if (spawnSync('redis-server', ['--version']).error)
      throw new Error(
        'The Redis outage test needs redis-server on PATH: apt-get install redis-server.',
      );
    port = await freePort();
    redis = spawn('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    await waitForRedis(port);
    jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation(
        (message: unknown) => void warnings.push(String(message)),
      );
  });
  const t = useTestApp(() => ({
    tenants: [example()],
    config: {
      redisUrl: `redis://127.0.0.1:${port}/0`,
      redisTimeoutMs: 100,
      rateLimit: 1000,
    },
  }));
  // After the service has closed.
  afterAll(() => {
    redis.kill('SIGCONT');
    redis.kill('SIGTERM');
    jest.restoreAllMocks();
  });

  /** The count Redis holds for a token's budget (null when it holds none). */
  const counted = async (token: string) => {
    const client = new Redis(`redis://127.0.0.1:${port}/0`);
    try {
      const hash = createHash('sha256').update(token).digest('hex');
      return await client.get(`identity:rate:token:${hash}`);
    } finally {
      client.disconnect();
    }
  };

  it('counts in Redis, lets requests through while it is paused, and counts there again after', async () => {
    await t.http().get(API).set(bearer(TOKENS.ada)).expect(200);
    expect(await counted(TOKENS.ada)).toBe('1');
    expect(warnings).toStrictEqual([]);

    redis.kill('SIGSTOP');
    // Before, every request waited for Redis until the client gave up.
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () =>
        t
          .http()
          .get(API)
          .set(bearer(TOKENS.mary))
          .timeout(3000)
          .then((r) => r.status),
      ),
    );
    expect(statuses).toStrictEqual(Array(8).fill(200));
    await t.http().get(API).set(bearer(TOKENS.mary)).timeout(3000).expect(200);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Redis does not answer \(.+\); rate limits count in this instance until it does$/,
    );

    redis.kill('SIGCONT');
    const counters = t.app.get<RedisCounters>(COUNTERS);
    await until(() => counters.inRedis);
    await t.http().get(API).set(bearer(TOKENS.charles)).expect(200);
    await t.http().get(API).set(bearer(TOKENS.charles)).expect(200);
    expect(await counted(TOKENS.charles)).toBe('2');
  });
});

async function waitForRedis(port: number) {
  await until(async () => {
    const client = new Redis(`redis://127.0.0.1:${port}`, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
    });
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  });
}
