// scripts/service-flags.js: the Node.js flags the service runs with, the
// same for `npm start`, the image and the benchmark.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const { SERVICE_NODE_FLAGS } = require('../../scripts/service-flags') as {
  SERVICE_NODE_FLAGS: string[];
};

describe("the service's Node.js flags", () => {
  it('are the young generation of 16 MB semi-spaces', () => {
    expect(SERVICE_NODE_FLAGS).toEqual(['--max-semi-space-size=16']);
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
});
