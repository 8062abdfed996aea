import type { SharedRedis } from '../redis/shared-redis';
import { ENTRY_BYTES, stringBytes } from '../../common/cache-budget';

/** A fixed window's count after a hit, and when the window ends. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

/** Counters of fixed windows: the first hit on a key starts its window. */
export interface Counters {
  /** The count at once where it is kept in this process, a promise of it otherwise. */
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  close(): Promise<void>;
}

/** The most keys an instance counts at once, and their bytes; the oldest window goes first. */
export const MAX_KEYS = 100_000;
export const MAX_BYTES = 36 * 1024 * 1024;

/** A window's bytes: its key, the Map's entry and the window object. */
export const windowBytes = (key: string) => ENTRY_BYTES + stringBytes(key);

/**
 * Counters in this process: one entry per key, O(1) per hit, swept once a
 * second and bounded in keys and in bytes, so that a flood of made-up
 * tokens (or of long keys) cannot grow memory without bound: past either
 * bound the oldest window is dropped, which only starts that key's count
 * again.
 */
export class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; ends: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 1000).unref();
  private held = 0;

  constructor(
    private readonly maxKeys = MAX_KEYS,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  hit(key: string, windowMs: number): WindowCount {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.ends <= now) {
      this.drop(key);
      const bytes = windowBytes(key);
      while (
        this.windows.size > 0 &&
        (this.windows.size >= this.maxKeys || this.held + bytes > this.maxBytes)
      )
        this.drop(this.windows.keys().next().value!);
      window = { count: 0, ends: now + windowMs };
      this.windows.set(key, window);
      this.held += bytes;
    }
    window.count++;
    return { count: window.count, resetMs: window.ends - now };
  }

  get size(): number {
    return this.windows.size;
  }

  /** The bytes the windows take, as windowBytes counts them. */
  get bytes(): number {
    return this.held;
  }

  private drop(key: string) {
    if (this.windows.delete(key)) this.held -= windowBytes(key);
  }

  private sweep(now = Date.now()) {
    // forEach rather than for…of: no entry array made per key, every second.
    this.windows.forEach((window, key) => {
      if (window.ends <= now) this.drop(key);
    });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

// A fixed window per key: the first hit starts it, the key expires with it.
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {hits, redis.call('PTTL', KEYS[1])}`;

/**
 * Counters in Redis, shared by every instance. While Redis is away (the
 * shared connection's breaker is open) this instance counts in memory and
 * lets requests through at once; once Redis answers, the instances share
 * their counts again. The counter store must never take the service down.
 */
export class RedisCounters implements Counters {
  private readonly fallback = new MemoryCounters();

  constructor(private readonly redis: SharedRedis) {}

  /** Whether counts go to Redis (false while it is away). */
  get inRedis(): boolean {
    return this.redis.available;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const counted = await this.redis.run(
      (client) =>
        client.eval(INCREMENT, 1, `identity:rate:${key}`, windowMs) as Promise<
          [number, number]
        >,
    );
    if (!counted) return this.fallback.hit(key, windowMs);
    const [count, pttl] = counted;
    return { count, resetMs: pttl };
  }

  async close(): Promise<void> {
    await this.fallback.close();
  }
}
