import { KeyRingError, newKeyEntry, parseKeys } from './secret-keys';
import { ConfigError, loadConfig } from './app-config';

const KEY = Buffer.alloc(32, 5).toString('base64');

describe('operator keys', () => {
  it('reads entries separated by commas or lines, the first first, comments left out', () => {
    expect(
      parseKeys(`# rotated in May\nk2:${KEY}\n, k1:${KEY}\n`, 'x').map(
        (k) => k.id,
      ),
    ).toStrictEqual(['k2', 'k1']);
    expect(parseKeys(newKeyEntry(), 'x')[0].key).toHaveLength(32);
  });

  it.each([
    ['', 'x: holds no key (<id>:<32 bytes in base64>)'],
    [
      `k1:${KEY.slice(4)}`,
      'x: entry 1 is not <id>:<32 bytes in base64> (the id: 1 to 32 letters, digits, _ or -)',
    ],
    [
      `k.1:${KEY}`,
      'x: entry 1 is not <id>:<32 bytes in base64> (the id: 1 to 32 letters, digits, _ or -)',
    ],
    [`k1:${KEY},k1:${KEY}`, 'x: key id "k1" is given twice'],
  ])('refuses %j', (text, message) => {
    expect(() => parseKeys(text, 'x')).toThrow(new KeyRingError(message));
  });

  it('takes SECRET_KEYS or SECRET_KEYS_FILE, never echoing a key', () => {
    expect(loadConfig({ SECRET_KEYS: `k1:${KEY}` }).secretKeys).toMatchObject({
      kind: 'given',
      keys: [{ id: 'k1' }],
    });
    expect(() => loadConfig({ SECRET_KEYS: `k1:${KEY.slice(2)}` })).toThrow(
      new ConfigError(
        'Invalid configuration:\n  SECRET_KEYS=(not shown): its value: entry 1 is not <id>:<32 bytes in base64> (the id: 1 to 32 letters, digits, _ or -)',
      ),
    );
    expect(() =>
      loadConfig({ SECRET_KEYS: `k1:${KEY}`, SECRET_KEYS_FILE: '/k' }),
    ).toThrow('give SECRET_KEYS or SECRET_KEYS_FILE, not both');
    expect(
      loadConfig({ SECRET_KEYS_FILE: '/run/keys' }).secretKeys,
    ).toStrictEqual({
      kind: 'file',
      path: '/run/keys',
      own: false,
    });
  });

  it('keeps the embedded database’s own key beside its data, and none on PostgreSQL unless given', () => {
    expect(loadConfig({}).secretKeys).toStrictEqual({
      kind: 'file',
      path: '.data/pglite.secret-keys',
      own: true,
    });
    expect(loadConfig({ DATA_DIR: 'memory://x' }).secretKeys).toStrictEqual({
      kind: 'memory',
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://u@127.0.0.1/db' }).secretKeys,
    ).toStrictEqual({ kind: 'none' });
  });
});
