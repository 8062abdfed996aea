import { SharedReading } from './shared-reading';

/** A reading the test ends when it wants, counting how many were started. */
function controlledReading() {
  const ends: ((value: number) => void)[] = [];
  const read = jest.fn(
    () => new Promise<number>((resolve) => ends.push(resolve)),
  );
  return { read, end: (i: number, value: number) => ends[i](value) };
}

describe('SharedReading', () => {
  it('lets callers while a reading runs share it', async () => {
    const { read, end } = controlledReading();
    const shared = new SharedReading(read, 0);
    const first = shared.get();
    const second = shared.get();
    end(0, 7);
    expect(await Promise.all([first, second])).toStrictEqual([7, 7]);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reuses a result until maxAgeMs after its reading ended, then reads again', async () => {
    let now = 1000;
    const { read, end } = controlledReading();
    const shared = new SharedReading(read, 500, () => now);
    const first = shared.get();
    now = 5000;
    end(0, 1);
    await first;
    now = 5499;
    expect(await shared.get()).toBe(1);
    expect(read).toHaveBeenCalledTimes(1);
    now = 5500;
    const again = shared.get();
    end(1, 2);
    expect(await again).toBe(2);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('shares a failed reading the same way', async () => {
    let now = 0;
    const read = jest.fn(() => Promise.reject(new Error('down')));
    const shared = new SharedReading(read, 100, () => now);
    await expect(shared.get()).rejects.toThrow('down');
    await expect(shared.get()).rejects.toThrow('down');
    expect(read).toHaveBeenCalledTimes(1);
    now = 100;
    await expect(shared.get()).rejects.toThrow('down');
    expect(read).toHaveBeenCalledTimes(2);
  });
});
