import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const LOCK = resolve(
  __dirname,
  '..',
  'dist',
  'database',
  'data-directory-lock.js',
);

/** A process that takes the lock of `dataDir`, says whether it got it, and holds it a while. */
function taker(dataDir: string): Promise<string> {
  const script = `
    const { lockDataDirectory } = require(${JSON.stringify(LOCK)});
    try {
      lockDataDirectory(${JSON.stringify(dataDir)}, 'cli');
      process.stdout.write('owner');
      setTimeout(() => {}, 1500);
    } catch (error) {
      process.stdout.write('refused');
    }`;
  const child = spawn(process.execPath, ['-e', script]);
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise((done) => child.once('close', () => done(out)));
}

// A lock left by a process killed with -9, and several processes starting
// at once: exactly one of them takes the directory.
describe('the embedded data directory’s lock', () => {
  it('goes to exactly one of six processes taking over a stale lock together', async () => {
    for (let trial = 0; trial < 8; trial++) {
      const dataDir = join(
        mkdtempSync(join(tmpdir(), 'identity-lock-')),
        'pglite',
      );
      // The PID of no running process: the highest possible one.
      writeFileSync(
        `${dataDir}.lock`,
        JSON.stringify({ pid: 4194304, role: 'service' }),
      );
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => taker(dataDir)),
      );
      expect([
        trial,
        outcomes.filter((o) => o === 'owner').length,
      ]).toStrictEqual([trial, 1]);
      expect(outcomes.filter((o) => o === 'refused').length).toBe(5);
    }
  });
});
