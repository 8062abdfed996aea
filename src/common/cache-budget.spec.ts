import { configurationBytes } from '../accounts/link-configuration-bytes';
import type { IssuerConfig } from '../auth/access.repository';
import { TOUCHED_BYTES } from '../auth/auth.service';
import { ADDRESSES_BYTES } from '../auth/issuer-keys';
import {
  ABSENT_BYTES,
  ISSUERS_BYTES,
  issuersEntryBytes,
} from '../auth/jwt-verifier';
import { tagEntryBytes, TAGS_BYTES } from '../identity/identity-tags';
import { SPENT_BYTES, VALID_BYTES } from '../ops/rate-limit/rate-limiter';
import {
  boundedCache,
  ENTRY_BYTES,
  keyedEntryBytes,
  stringBytes,
  valueBytes,
} from './cache-budget';

describe('boundedCache', () => {
  it('keeps its entries within its bytes, the least recently used going first', () => {
    const cache = boundedCache<string, string>({
      max: 1000,
      maxBytes: 10_000,
      sizeOf: (value) => value.length,
    });
    cache.set('a', 'x'.repeat(4000));
    cache.set('b', 'x'.repeat(4000));
    cache.get('a');
    cache.set('c', 'x'.repeat(4000));
    expect([...cache.keys()].sort()).toStrictEqual(['a', 'c']);
    expect(cache.calculatedSize).toBe(8000);
  });

  it('keeps no entry larger than the whole budget', () => {
    const cache = boundedCache<string, string>({
      max: 10,
      maxBytes: 100,
      sizeOf: (value) => value.length,
    });
    cache.set('small', 'x');
    cache.set('huge', 'x'.repeat(101));
    expect([...cache.keys()]).toStrictEqual(['small']);
  });

  it('keeps its count bound as well', () => {
    const cache = boundedCache<number, true>({
      max: 2,
      maxBytes: 1e9,
      sizeOf: () => 1,
    });
    for (let i = 0; i < 5; i++) cache.set(i, true);
    expect([...cache.keys()]).toStrictEqual([4, 3]);
  });
});

describe('the sizes of entries', () => {
  it('counts two bytes a character and a header for a string', () => {
    expect(stringBytes('')).toBe(40);
    expect(stringBytes('x'.repeat(1000))).toBe(2040);
  });

  it('counts every string, number and property of a parsed value', () => {
    expect(valueBytes({ a: ['bc', 1, null, true] })).toBe(
      32 + 16 + 32 + 4 * 16 + stringBytes('bc') + 3 * 16,
    );
  });
});

const longText = (n: number, c: string) => c.repeat(n);
const issuers = (n: number): IssuerConfig[] =>
  Array.from(
    { length: n },
    (_, i) =>
      ({
        issuer: `https://issuer-${i}.example/${longText(500, 'p')}`,
        audiences: [longText(200, 'a'), longText(200, 'b')],
        algorithms: ['RS256', 'ES256'],
        identityClaim: 'sub',
      }) as unknown as IssuerConfig,
  );

/**
 * Every cache of the service with its budget and its entry size, filled
 * with twice its budget of large entries (long keys, long lists).
 */
const CACHES: [
  string,
  number,
  (i: number) => [string, unknown],
  (value: never, key: string) => number,
][] = [
  [
    'ETags of versions',
    TAGS_BYTES,
    (i) => [
      `${longText(63, 't')}\u0000${longText(128, 'i')}${i}\u0000${i}`,
      longText(22, 'x'),
    ],
    tagEntryBytes as never,
  ],
  [
    'tokens seen valid',
    VALID_BYTES,
    (i) => [`${i}`.padStart(64, 'f'), true],
    keyedEntryBytes,
  ],
  [
    'addresses whose failures are spent',
    SPENT_BYTES,
    (i) => [`2001:db8::${i}%${longText(200, 'z')}`, 1],
    keyedEntryBytes,
  ],
  [
    'tokens whose last use was written',
    TOUCHED_BYTES,
    (i) => [`${i}`.padStart(36, '0'), true],
    keyedEntryBytes,
  ],
  [
    'issuer lists',
    ISSUERS_BYTES,
    (i) => [`tenant-${i}`, issuers(100)],
    issuersEntryBytes as never,
  ],
  [
    'names that are no tenant',
    ABSENT_BYTES,
    (i) => [`${longText(60, 'n')}${i}`, true],
    keyedEntryBytes,
  ],
  [
    'failed issuer addresses',
    ADDRESSES_BYTES,
    (i) => [`public https://${i}.example/${longText(2000, 'u')}`, true],
    keyedEntryBytes,
  ],
];

describe.each(CACHES)('the cache of %s', (_name, budget, entry, sizeOf) => {
  it('stays within its bytes when filled with large entries, the oldest evicted', () => {
    const cache = boundedCache<string, object>({
      max: 1_000_000,
      maxBytes: budget,
      sizeOf: sizeOf as (value: object, key: string) => number,
    });
    const [firstKey] = entry(0);
    let added = 0;
    for (let i = 0; added < 2 * budget; i++) {
      const [key, value] = entry(i);
      cache.set(key, value as object);
      added += sizeOf(value as never, key);
    }
    expect(cache.calculatedSize).toBeLessThanOrEqual(budget);
    expect(cache.calculatedSize).toBeGreaterThan(budget / 2);
    expect(cache.has(firstKey)).toBe(false);
  });

  it('counts at least the characters of an entry twice', () => {
    const [key, value] = entry(1);
    expect(sizeOf(value as never, key)).toBeGreaterThanOrEqual(
      ENTRY_BYTES + 2 * key.length,
    );
  });
});

describe('the configurations of link providers', () => {
  it('counts the metadata of a large discovery document', () => {
    const metadata = {
      issuer: 'https://p.example',
      claims: longText(500_000, 'c'),
    };
    const configuration = { serverMetadata: () => metadata } as never;
    expect(configurationBytes(configuration, 'k')).toBeGreaterThan(1_000_000);
  });
});
