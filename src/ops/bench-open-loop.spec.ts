// bench/open-loop.js: the benchmark's fixed-rate load generator. What it
// reports is what the fixed-rate target is judged on, so it is held to what
// it claims: every request sent, on schedule, each latency counted from its
// due time, every failure counted.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type Result = {
  p50: number;
  p99: number;
  p999: number;
  errors: number;
  requests: number;
  generatorGc: { count: number; ms: number; maxMs: number };
};
const { openLoop } = require('../../bench/open-loop') as {
  openLoop: (options: {
    port: number;
    path: string;
    tokens: string[];
    rate: number;
    seconds: number;
    onStart?: () => Promise<void> | void;
  }) => Promise<Result>;
};

describe("the benchmark's open-loop generator", () => {
  let server: Server;
  let port: number;
  let seen: { at: number; path: string; authorization: string }[];
  // What the server does with the n-th request (from 0).
  let answer: (n: number, respond: (status: number) => void) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const n =
        seen.push({
          at: performance.now(),
          path: req.url!,
          authorization: req.headers.authorization!,
        }) - 1;
      answer(n, (status) =>
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end('{"ok":true}'),
      );
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((done) => server.close(done)));
  beforeEach(() => {
    seen = [];
    answer = (_, respond) => respond(200);
  });

  it('sends rate × seconds requests, spread over the seconds, each with the next token', async () => {
    let started = 0;
    const result = await openLoop({
      port,
      path: '/t/api',
      tokens: ['a', 'b', 'c'],
      rate: 200,
      seconds: 1,
      onStart: () => void (started = performance.now()),
    });

    expect(result).toMatchObject({ requests: 200, errors: 0 });
    expect(seen).toHaveLength(200);
    expect(new Set(seen.map((s) => s.path))).toEqual(new Set(['/t/api']));
    expect(seen.slice(0, 4).map((s) => s.authorization)).toEqual([
      'Bearer a',
      'Bearer b',
      'Bearer c',
      'Bearer a',
    ]);
    // On schedule: the last request was due at 995 ms, not sent at once.
    expect(seen[199].at - started).toBeGreaterThan(900);
    expect(result.generatorGc).toEqual({
      count: expect.any(Number),
      ms: expect.any(Number),
      maxMs: expect.any(Number),
    });
  });

  it('counts each latency from when its request was due, so a stall shows in every request it delays', async () => {
    // The server holds every answer from 300 ms to 500 ms into the run:
    // some 40 requests are due meanwhile, each answered only at 500 ms.
    let started = 0;
    answer = (_, respond) => {
      const late = 500 - (performance.now() - started);
      if (performance.now() - started >= 300 && late > 0)
        setTimeout(() => respond(200), late);
      else respond(200);
    };
    const result = await openLoop({
      port,
      path: '/',
      tokens: ['a'],
      rate: 200,
      seconds: 1,
      onStart: () => void (started = performance.now()),
    });

    expect(result.errors).toBe(0);
    // 2 % of the requests waited 100 ms or more (the first due ones ~200).
    expect(result.p99).toBeGreaterThanOrEqual(100);
    expect(result.p999).toBeGreaterThanOrEqual(180);
    expect(result.p50).toBeLessThan(50);
  });

  it('counts an answer other than 200 as a failure, and a refused connection too, without hanging', async () => {
    answer = (n, respond) => respond(n % 10 === 0 ? 503 : 200);
    expect(
      await openLoop({ port, path: '/', tokens: ['a'], rate: 100, seconds: 1 }),
    ).toMatchObject({
      requests: 100,
      errors: 10,
    });

    const closed = createServer();
    await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
    const unused = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    expect(
      await openLoop({
        port: unused,
        path: '/',
        tokens: ['a'],
        rate: 50,
        seconds: 0.5,
      }),
    ).toMatchObject({
      requests: 25,
      errors: 25,
    });
  });
});
