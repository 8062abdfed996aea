// The benchmark's open-loop load generator (bench/run.js's fixed-rate runs,
// bench/ledger.js): requests sent at a fixed rate whatever the answers do,
// each latency counted from when its request was due (as wrk2 measures), so
// that a stall shows in every request it delays.
//
// A generator in JavaScript must not stall itself: a pause of its own
// collector delays every request due meanwhile, and the server then gets
// them at once. It therefore allocates little: requests go through undici's
// dispatch API (callbacks, no response stream or promise per request), and
// due times and latencies are kept in typed arrays. With a promise and a
// response stream per request, its scavenges took 10–23 ms every 1.5–3.5 s
// at 1,200 requests/s, and most windows of slow answers, the floor's as
// well as the service's, began with one (docs/benchmark.md, "The load
// generator's own pauses"). Its own collections during the measured
// seconds are counted and returned beside the latencies.
const { PerformanceObserver } = require('node:perf_hooks');
const { Pool } = require('undici');

/**
 * Sends GET `path` to 127.0.0.1:`port` at `rate` requests/s on 64
 * connections for `seconds`, each with the next of `tokens`; `onStart` is
 * called just before the first request is due. Resolves when every answer
 * is in: `{ p50, p99, p999, errors, requests, generatorGc }` (milliseconds;
 * an answer other than 200 or no answer is an error).
 */
async function openLoop({ port, path, tokens, rate, seconds, onStart }) {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 64 });
  const total = Math.round(seconds * rate);
  const due = new Float64Array(total);
  const took = new Float64Array(total);
  let [errors, pending, sentAll, next] = [0, 0, false, 0];
  let allAnswered;
  const answered = new Promise((done) => (allAnswered = done));

  class Answer {
    constructor(k) {
      this.k = k;
      this.status = 0;
    }
    onRequestStart() {}
    onResponseStart(_, status) {
      this.status = status;
    }
    onResponseData() {}
    onResponseEnd() {
      if (this.status !== 200) errors++;
      this.done();
    }
    onResponseError() {
      errors++;
      this.done();
    }
    done() {
      took[this.k] = performance.now() - due[this.k];
      if (--pending === 0 && sentAll) allAnswered();
    }
  }
  const send = (k) => {
    pending++;
    const token = tokens[next++ % tokens.length];
    pool.dispatch({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } }, new Answer(k));
  };

  const gc = { count: 0, ms: 0, maxMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.ms += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  });
  try {
    await onStart?.();
    observer.observe({ entryTypes: ['gc'] });
    const begin = performance.now();
    for (let i = 0; i < total; ) {
      // Every request due by now, then wait a millisecond.
      for (; i < total && begin + (i * 1000) / rate <= performance.now(); i++) {
        due[i] = begin + (i * 1000) / rate;
        send(i);
      }
      await new Promise((done) => setTimeout(done, 1));
    }
    sentAll = true;
    if (pending) await answered;
  } finally {
    observer.disconnect();
    await pool.close();
  }
  took.sort();
  const at = (p) => Number(took[Math.min(total - 1, Math.floor(p * total))].toFixed(1));
  const generatorGc = { count: gc.count, ms: Number(gc.ms.toFixed(1)), maxMs: Number(gc.maxMs.toFixed(1)) };
  return { p50: at(0.5), p99: at(0.99), p999: at(0.999), errors, requests: total, generatorGc };
}

module.exports = { openLoop };
