import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig, SecretKeySource } from '../../config/app-config';
import { ConfigError } from '../../config/app-config';
import { parseKeys } from '../../config/secret-keys';
import { NoSecretKey } from '../errors';
import { SecretBox, SecretUnreadable } from './secret-box';

const key = (id: string, byte: number) =>
  `${id}:${Buffer.alloc(32, byte).toString('base64')}`;
const box = (secretKeys: SecretKeySource) =>
  new SecretBox({ secretKeys } as AppConfig);
const given = (...entries: string[]) =>
  box({ kind: 'given', keys: parseKeys(entries.join(','), 'test') });
const CONTEXT = ['client-secret', 'acme', 'gh'];

describe('SecretBox', () => {
  it('seals under the first key, with its id in front, and opens what it sealed', () => {
    const b = given(key('k2', 2), key('k1', 1));
    const sealed = b.seal('s3cret', CONTEXT);
    expect(sealed).toMatch(/^k2\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{30}$/);
    expect(sealed).not.toBe(b.seal('s3cret', CONTEXT));
    expect(b.open(sealed, CONTEXT)).toBe('s3cret');
  });

  it('opens what an older key sealed while that key is listed, and not after', () => {
    const sealed = given(key('k1', 1)).seal('s3cret', CONTEXT);
    expect(given(key('k2', 2), key('k1', 1)).open(sealed, CONTEXT)).toBe(
      's3cret',
    );
    expect(() => given(key('k2', 2)).open(sealed, CONTEXT)).toThrow(
      new SecretUnreadable('k1'),
    );
    // The same id with other key material opens nothing either.
    expect(() => given(key('k1', 9)).open(sealed, CONTEXT)).toThrow(
      SecretUnreadable,
    );
  });

  it('opens a secret only for the tenant and provider it was sealed for', () => {
    const b = given(key('k1', 1));
    const sealed = b.seal('s3cret', CONTEXT);
    for (const other of [
      ['client-secret', 'other', 'gh'],
      ['client-secret', 'acme', 'gl'],
      ['client-secret', 'acme\u0000gh'],
    ])
      expect(() => b.open(sealed, other)).toThrow(SecretUnreadable);
    const [id, nonce, data] = sealed.split('.');
    const flipped = `${data.slice(0, -2)}${data.at(-2) === 'A' ? 'B' : 'A'}${data.at(-1)}`;
    for (const tampered of [
      `${id}.${nonce}.${flipped}`,
      `${id}.${nonce}`,
      'k1',
      '',
    ])
      expect(() => b.open(tampered, CONTEXT)).toThrow(SecretUnreadable);
  });

  it('refuses to seal without a key', () => {
    expect(() => box({ kind: 'none' }).seal('s', CONTEXT)).toThrow(NoSecretKey);
  });

  it('keeps one key for the process when the data is in memory', () => {
    const sealed = box({ kind: 'memory' }).seal('s', CONTEXT);
    expect(box({ kind: 'memory' }).open(sealed, CONTEXT)).toBe('s');
  });

  it('makes the embedded database’s key file for its owner only, keeps it, and adds keys first', () => {
    const path = join(
      mkdtempSync(join(tmpdir(), 'keys-')),
      'pglite.secret-keys',
    );
    const own = box({ kind: 'file', path, own: true });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const sealed = own.seal('s', CONTEXT);
    expect(box({ kind: 'file', path, own: true }).open(sealed, CONTEXT)).toBe(
      's',
    );
    const reader = box({ kind: 'file', path, own: true });
    const first = own.currentKeyId;
    const { added, keys } = own.addKey();
    expect([added, keys[1], keys.length]).toStrictEqual([true, first, 2]);
    expect(own.currentKeyId).not.toBe(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // A box that read the file before finds the new key when it meets it.
    expect(reader.open(own.seal('s', CONTEXT), CONTEXT)).toBe('s');
  });

  it('refuses a key file others may read, and says so without its content', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys');
    writeFileSync(path, `${key('k1', 1)}\n`, { mode: 0o644 });
    expect(() => box({ kind: 'file', path, own: false })).toThrow(
      new ConfigError(
        `Invalid configuration:\n  SECRET_KEYS_FILE: ${path}: readable by others (mode 644); allow its owner only (chmod 600)`,
      ),
    );
    expect(readFileSync(path, 'utf8')).toContain('k1:');
    expect(() =>
      box({ kind: 'file', path: `${path}-missing`, own: false }),
    ).toThrow(
      new ConfigError(
        `Invalid configuration:\n  SECRET_KEYS_FILE: ${path}-missing cannot be read (ENOENT)`,
      ),
    );
  });
});
