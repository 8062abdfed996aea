import { MemoryWritePositions, positionBytes } from './write-positions';

describe('MemoryWritePositions', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps the greatest position of each tenant for its time, never moving back', async () => {
    jest.useFakeTimers({ now: 0 });
    const positions = new MemoryWritePositions(2000);
    expect(await positions.latest('acme')).toBeUndefined();
    await positions.record('acme', 300n);
    await positions.record('acme', 200n);
    await positions.record('other', 100n);
    expect(await positions.latest('acme')).toBe(300n);
    expect(await positions.latest('other')).toBe(100n);
    jest.setSystemTime(1999);
    expect(await positions.latest('acme')).toBe(300n);
    jest.setSystemTime(2000);
    expect(await positions.latest('acme')).toBeUndefined();
  });

  it('keeps its positions within its bytes, the oldest tenant forgotten first', async () => {
    const positions = new MemoryWritePositions(60_000, 10_000);
    const tenant = (i: number) =>
      `tenant-${String(i).padStart(2, '0')}-${'x'.repeat(500)}`;
    for (let i = 0; i < 20; i++) await positions.record(tenant(i), BigInt(i));
    const kept = Math.floor(10_000 / positionBytes(tenant(0)));
    expect(positions.bytes).toBe(kept * positionBytes(tenant(0)));
    expect(await positions.latest(tenant(19 - kept))).toBeUndefined();
    expect(await positions.latest(tenant(20 - kept))).toBe(BigInt(20 - kept));
    expect(await positions.latest(tenant(19))).toBe(19n);
  });
});
