import { MemoryThrottlerStorage } from './rate-limit';

describe('MemoryThrottlerStorage', () => {
  let storage: MemoryThrottlerStorage;
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
    storage = new MemoryThrottlerStorage();
  });
  afterEach(() => {
    storage.onApplicationShutdown();
    jest.useRealTimers();
  });

  it('counts hits per key in a fixed window and blocks past the limit', async () => {
    expect(await storage.increment('a', 60_000, 2)).toStrictEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await storage.increment('b', 60_000, 2)).toMatchObject({
      totalHits: 1,
    });
    jest.advanceTimersByTime(20_500);
    expect(await storage.increment('a', 60_000, 2)).toStrictEqual({
      totalHits: 2,
      timeToExpire: 40,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await storage.increment('a', 60_000, 2)).toStrictEqual({
      totalHits: 3,
      timeToExpire: 40,
      isBlocked: true,
      timeToBlockExpire: 40,
    });
  });

  it('starts a new window when the old one has ended', async () => {
    await storage.increment('a', 1_000, 1);
    expect(await storage.increment('a', 1_000, 1)).toMatchObject({
      isBlocked: true,
    });
    jest.advanceTimersByTime(1_000);
    expect(await storage.increment('a', 1_000, 1)).toStrictEqual({
      totalHits: 1,
      timeToExpire: 1,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });
});
