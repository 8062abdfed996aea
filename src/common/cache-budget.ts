import { LRUCache } from 'lru-cache';

/**
 * What one entry of a cache costs beyond its key and value, in bytes: the
 * Map entry and its hash slots (a table grown by doubling), lru-cache's
 * slots (key, value, links, size, time to live), a window object and its
 * number, rounded up (docs/operations.md, Memory, measures them).
 */
export const ENTRY_BYTES = 160;

/**
 * The bytes a string may take in V8: two a character (one-byte strings take
 * half of that), plus a header and the node of a concatenation or a slice.
 * Conservative, and O(1): no string is walked to measure it.
 */
export const stringBytes = (text: string): number => 2 * text.length + 40;

/**
 * The bytes a value parsed from JSON may take: its strings as stringBytes,
 * 16 a number or boolean, and 32 plus 16 a property or element for each
 * object or array (property names are shared by objects of one shape).
 * Walks the value: for what is measured once, when it is cached, never on
 * a hit.
 */
export function valueBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (value === null || typeof value !== 'object') return 16;
  let bytes = 32;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) bytes += 16 + valueBytes(item);
    return bytes;
  }
  for (const item of Object.values(value)) bytes += 16 + valueBytes(item);
  return bytes;
}

/** A cache's bounds: entries, bytes, and the size of one entry. */
export interface CacheBudget<K, V> {
  /** The most entries. */
  max: number;
  /** The most bytes its entries may take together (by `sizeOf`). */
  maxBytes: number;
  /** One entry's bytes, ENTRY_BYTES included; computed when it is set, never when it is read. */
  sizeOf: (value: V, key: K) => number;
  /** How long an entry is kept, when it expires. */
  ttl?: number;
}

/**
 * An LRU cache bounded both in entries and in bytes: past either bound the
 * least recently used entries go first, and an entry larger than the whole
 * budget is not kept at all.
 */
export function boundedCache<K extends {}, V extends {}>({
  max,
  maxBytes,
  sizeOf,
  ttl,
}: CacheBudget<K, V>): LRUCache<K, V> {
  return new LRUCache<K, V>({
    max,
    maxSize: maxBytes,
    sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(value, key))),
    ...(ttl !== undefined && { ttl }),
  });
}

/** The size of an entry whose key is a string and whose value is small and fixed (a flag, a number). */
export const keyedEntryBytes = (_value: unknown, key: string): number =>
  ENTRY_BYTES + stringBytes(key);
