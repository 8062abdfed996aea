import { MAX_BYTES, MemoryCounters, windowBytes } from './counters';

describe('MemoryCounters', () => {
  let counters: MemoryCounters;
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
    counters = new MemoryCounters();
  });
  afterEach(async () => {
    await counters.close();
    jest.useRealTimers();
  });

  it('counts hits per key in a fixed window started by the first hit, at once', () => {
    expect(counters.hit('a', 60_000)).toStrictEqual({
      count: 1,
      resetMs: 60_000,
    });
    expect(counters.hit('b', 60_000)).toStrictEqual({
      count: 1,
      resetMs: 60_000,
    });
    jest.advanceTimersByTime(20_500);
    expect(counters.hit('a', 60_000)).toStrictEqual({
      count: 2,
      resetMs: 39_500,
    });
  });

  it('starts a new window when the old one has ended, and forgets ended ones', () => {
    counters.hit('a', 1_000);
    counters.hit('a', 1_000);
    jest.advanceTimersByTime(1_000);
    expect(counters.hit('a', 1_000)).toStrictEqual({
      count: 1,
      resetMs: 1_000,
    });
    jest.advanceTimersByTime(2_000);
    expect(counters.size).toBe(0);
  });

  it('keeps at most 100,000 keys, dropping the oldest window first', () => {
    for (let i = 0; i <= 100_000; i++) counters.hit(`k${i}`, 60_000);
    expect(counters.size).toBe(100_000);
    expect(counters.hit('k0', 60_000)).toMatchObject({ count: 1 });
    expect(counters.hit('k100000', 60_000)).toMatchObject({ count: 2 });
  });

  it('keeps its windows within its bytes, however long the keys, dropping the oldest first', () => {
    const key = (i: number) =>
      `address:${String(i).padStart(6, '0')}:${'x'.repeat(5000)}`;
    for (let i = 0; windowBytes(key(0)) * i < 2 * MAX_BYTES; i++)
      counters.hit(key(i), 60_000);
    expect(counters.bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(counters.bytes).toBeGreaterThan(MAX_BYTES - windowBytes(key(0)));
    expect(counters.size).toBe(Math.floor(MAX_BYTES / windowBytes(key(0))));
    expect(counters.hit(key(0), 60_000)).toMatchObject({ count: 1 });
  });

  it('gives back the bytes of the windows it forgets', () => {
    counters.hit('a'.repeat(1000), 1_000);
    counters.hit('b', 1_000);
    expect(counters.bytes).toBe(
      windowBytes('a'.repeat(1000)) + windowBytes('b'),
    );
    jest.advanceTimersByTime(2_000);
    expect([counters.size, counters.bytes]).toStrictEqual([0, 0]);
  });
});
