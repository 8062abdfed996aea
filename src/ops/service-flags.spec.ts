// scripts/service-flags.js: the Node.js flags the service runs with, the
// same for `npm start`, the image and the benchmark.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const { SERVICE_NODE_FLAGS } = require('../../scripts/service-flags') as {
  SERVICE_NODE_FLAGS: string[];
};

describe("the service's Node.js flags", () => {
  it('are the young generation of 16 MB semi-spaces, WebAssembly in the baseline tier, no pretenuring and one background thread', () => {
    expect(SERVICE_NODE_FLAGS).toEqual([
      '--max-semi-space-size=16',
      '--liftoff-only',
      '--no-allocation-site-pretenuring',
      '--v8-pool-size=1',
    ]);
  });

  it("are npm start's", () => {
    const { scripts } = require('../../package.json') as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe(
      `node ${SERVICE_NODE_FLAGS.join(' ')} dist/main`,
    );
  });

  it("are the image's command", () => {
    const commands = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('CMD '));
    expect(commands).toEqual([
      `CMD [${['node', ...SERVICE_NODE_FLAGS, 'dist/main.js'].map((word) => JSON.stringify(word)).join(', ')}]`,
    ]);
  });

  it('bound the young generation of this Node.js to 2 × 16 MB', () => {
    // Objects that survive a while make V8 grow the young generation to its
    // bound; the peak size it reports is both halves.
    const grow = `const v8 = require('node:v8'); let peak = 0; const keep = [];
      for (let r = 0; r < 200; r++) {
        keep.push(Array.from({ length: 20000 }, (_, i) => ({ i })));
        if (keep.length > 30) keep.shift();
        const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
        peak = Math.max(peak, young.space_size);
      }
      console.log(peak / 1048576);`;
    const peakMb = (flags: string[]) =>
      Number(
        execFileSync(process.execPath, [...flags, '-e', grow], {
          encoding: 'utf8',
        }),
      );
    expect(peakMb(SERVICE_NODE_FLAGS)).toBe(32);
  });

  it("keep this Node.js's WebAssembly out of the optimizing tier, however hot", () => {
    // A module of one function, (n) => n + (n - 1) + … + 1, called until
    // V8 has optimized it or a second has passed.
    const hot = `const body = [1, 1, 0x7f, 0x03, 0x40, 0x20, 1, 0x20, 0, 0x6a, 0x21, 1,
        0x20, 0, 0x41, 1, 0x6b, 0x22, 0, 0x0d, 0, 0x0b, 0x20, 1, 0x0b];
      const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 6, 1, 0x60, 1, 0x7f, 1, 0x7f,
        3, 2, 1, 0, 7, 5, 1, 1, 0x66, 0, 0, 10, body.length + 2, 1, body.length, ...body]);
      const { f } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
      const until = Date.now() + 1000;
      do for (let i = 0; i < 1000; i++) f(1000);
      while (!%IsTurboFanFunction(f) && Date.now() < until);
      console.log(JSON.stringify({ sum: f(1000), liftoff: %IsLiftoffFunction(f), optimized: %IsTurboFanFunction(f) }));`;
    const tiers = (flags: string[]) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [...flags, '--allow-natives-syntax', '-e', hot],
          { encoding: 'utf8' },
        ),
      ) as unknown;
    expect(tiers([])).toEqual({ sum: 500500, liftoff: false, optimized: true });
    expect(tiers(SERVICE_NODE_FLAGS)).toEqual({
      sum: 500500,
      liftoff: true,
      optimized: false,
    });
  });

  it("keep this Node.js from allocating a literal's objects in the old generation", () => {
    // A literal whose objects all live long, then 1,000 more of them.
    const literal = `function make(i) { return { i, next: null }; }
      const keep = [];
      for (let r = 0; r < 60; r++) for (let i = 0; i < 20000; i++) keep.push(make(i));
      let young = 0;
      for (let i = 0; i < 1000; i++) if (%InYoungGeneration(make(i))) young++;
      console.log(young);`;
    const young = (flags: string[]) =>
      Number(
        execFileSync(
          process.execPath,
          [...flags, '--allow-natives-syntax', '-e', literal],
          { encoding: 'utf8' },
        ),
      );
    expect(young(SERVICE_NODE_FLAGS)).toBe(1000);
    // Node.js 24's V8 pretenures that literal by default; Node.js 22's does
    // not. It decides so from what its optimized code of `make` records,
    // which depends on when that code is ready: in about one run in three it
    // has not yet decided. Some run of eight does.
    if (NODE_MAJOR >= 24) {
      const runs: number[] = [];
      for (let n = 0; n < 8 && !runs.includes(0); n++)
        runs.push(young(SERVICE_NODE_FLAGS.slice(0, 2)));
      expect(runs).toContain(0);
    }
  });

  // Linux lists a process's threads in /proc. Node.js starts four threads
  // for V8's background work by default; on Node.js 24 they are named.
  (existsSync('/proc/self/task') ? it : it.skip)(
    "give this Node.js's V8 one background thread",
    () => {
      const names = `const { readdirSync, readFileSync } = require('node:fs');
      // A compilation in the background, so that the threads have started.
      new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
      console.log(JSON.stringify(readdirSync('/proc/self/task').map((t) => readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim())));`;
      const threads = (flags: string[]) =>
        JSON.parse(
          execFileSync(process.execPath, [...flags, '-e', names], {
            encoding: 'utf8',
          }),
        ) as string[];
      const [deployed, fourWorkers] = [
        threads(SERVICE_NODE_FLAGS),
        threads(SERVICE_NODE_FLAGS.slice(0, 3)),
      ];
      expect(fourWorkers.length - deployed.length).toBe(3);
      if (NODE_MAJOR >= 24)
        expect(
          [deployed, fourWorkers].map(
            (list) => list.filter((name) => name === 'V8Worker').length,
          ),
        ).toEqual([1, 4]);
    },
  );
});
