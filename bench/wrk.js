// The wrk pass of the benchmark (`npm run bench -- --wrk`): GET of the
// current identity driven by wrk (a load generator in C, 2 threads) against
// the service, the peer and the floor in turn, with the tokens rotated by
// bench/wrk-rotate.lua, so that the figures do not hang on autocannon's own
// cost: on 2 cores the load generator takes CPU from the server measured.
// The wrk process's own CPU time is measured beside them.
const { spawn } = require('node:child_process');
const { accessSync, constants } = require('node:fs');
const { delimiter, join } = require('node:path');

const SCRIPT = join(__dirname, 'wrk-rotate.lua');
const CONNECTIONS = 64;
const THREADS = 2;
// autocannon's: a request unanswered for 10 s counts as failed (wrk's own is 2 s).
const TIMEOUT = '10s';

/** Whether a `wrk` program is on PATH. */
function hasWrk() {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, 'wrk'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * One wrk run of `seconds` (whole ones: wrk's least is 1 s) against `url`; its figures and the CPU seconds
 * wrk used (user + system: the shell's `times`, whose second line is its
 * children's, that is wrk's).
 */
function wrk(url, tokens, seconds) {
  const args = ['-c', String(CONNECTIONS), '-t', String(THREADS), '-d', `${Math.max(1, Math.round(seconds))}s`, '--timeout', TIMEOUT, '--latency', '-s', SCRIPT, url, '--', ...tokens];
  const child = spawn('sh', ['-c', 'wrk "$@"; status=$?; times; exit $status', 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => {
      const figures = /^WRK_FIGURES (.*)$/m.exec(out);
      const times = out.trim().split('\n').at(-1).match(/(\d+)m([\d.]+)s/g);
      if (code !== 0 || !figures || times?.length !== 2) return fail(new Error(`wrk failed (${code}):\n${out}${err}`));
      const cpuS = times.map((t) => /(\d+)m([\d.]+)s/.exec(t)).reduce((sum, [, m, s]) => sum + Number(m) * 60 + Number(s), 0);
      done({ ...JSON.parse(figures[1]), cpuS: Number(cpuS.toFixed(2)) });
    });
  });
}

/**
 * GET `path` with wrk against each server ([name, script, port]) in turn,
 * each started anew by `start`: `warmup` seconds, then `seconds` measured.
 * Per server: requests/s, p50 and p99 (ms), failed requests (a status of 400
 * or more, a socket error or a timeout; `failed` says which) and wrk's CPU
 * seconds.
 */
async function wrkPass({ start, servers, path, tokens, warmup, seconds }) {
  const results = {};
  for (const [name, script, port] of servers) {
    const child = await start(script, port, {});
    try {
      const url = `http://127.0.0.1:${port}${path}`;
      await wrk(url, tokens, warmup);
      const r = await wrk(url, tokens, seconds);
      if (!r.requests) throw new Error(`wrk sent no request to the ${name}`);
      results[name] = {
        rps: Math.round(r.requests / (r.durationUs / 1e6)),
        p50: Number((r.p50Us / 1000).toFixed(1)),
        p99: Number((r.p99Us / 1000).toFixed(1)),
        errors: r.status + r.connect + r.read + r.write + r.timeout,
        failed: Object.fromEntries(['status', 'connect', 'read', 'write', 'timeout'].filter((kind) => r[kind]).map((kind) => [kind, r[kind]])),
        requests: r.requests,
        generatorCpuS: r.cpuS,
      };
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
    }
  }
  return results;
}

module.exports = { hasWrk, wrkPass, CONNECTIONS, THREADS };
