import type { SharedRedis } from '../redis/shared-redis';

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

/** The most keys an instance counts at once; the oldest window goes first. */
const MAX_KEYS = 100_000;

/**
 * Counters in this process: one entry per key, O(1) per hit, swept once a
 * second and bounded, so that a flood of made-up tokens cannot grow memory
 * without bound (past MAX_KEYS the oldest window is dropped, which only
 * starts that key's count again).
 */
export class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; ends: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 1000).unref();

  hit(key: string, windowMs: number): WindowCount {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.ends <= now) {
      this.windows.delete(key);
      if (this.windows.size >= MAX_KEYS)
        this.windows.delete(this.windows.keys().next().value!);
      window = { count: 0, ends: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetMs: window.ends - now };
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now = Date.now()) {
    // forEach rather than for…of: no entry array made per key, every second.
    this.windows.forEach((window, key) => {
      if (window.ends <= now) this.windows.delete(key);
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
