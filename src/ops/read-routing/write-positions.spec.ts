import { MemoryWritePositions } from './write-positions';

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
});
