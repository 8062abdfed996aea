import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DataDirectoryInUse,
  directoryOwner,
  lockDataDirectory,
} from './data-directory-lock';

describe('lockDataDirectory', () => {
  const dir = () => join(mkdtempSync(join(tmpdir(), 'lock-')), 'data');

  it('lets one owner hold a directory and refuses another, naming the owner', () => {
    const data = dir();
    const lock = lockDataDirectory(data, 'service');
    lock.announce({ socketDir: '/tmp/s', url: 'http://localhost:3000' });
    expect(directoryOwner(data)).toStrictEqual({
      pid: process.pid,
      role: 'service',
      socketDir: '/tmp/s',
      url: 'http://localhost:3000',
    });
    expect(() => lockDataDirectory(data, 'cli')).toThrow(
      new DataDirectoryInUse(
        `The embedded database ${data} is in use by the service (PID ${process.pid}, http://localhost:3000). Stop it first, or set DATA_DIR to another directory.`,
      ),
    );
    lock.release();
    expect(existsSync(`${data}.lock`)).toBe(false);
    expect(directoryOwner(data)).toBeUndefined();
  });

  it('takes over a lock left by a process that no longer runs', () => {
    const data = dir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(
      `${data}.lock`,
      JSON.stringify({ pid: gone, role: 'service' }),
    );
    expect(directoryOwner(data)).toBeUndefined();
    const lock = lockDataDirectory(data, 'cli');
    expect(JSON.parse(readFileSync(`${data}.lock`, 'utf8'))).toStrictEqual({
      pid: process.pid,
      role: 'cli',
    });
    lock.release();
  });

  it('creates the parent directory a fresh checkout does not have yet', () => {
    const data = join(mkdtempSync(join(tmpdir(), 'lock-')), '.data', 'pglite');
    const lock = lockDataDirectory(data, 'service');
    expect(directoryOwner(data)).toStrictEqual({
      pid: process.pid,
      role: 'service',
    });
    lock.release();
  });
});
