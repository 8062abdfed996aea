import { CursorSlots } from './cursor-slots';
import { isDatabaseUnavailable, NoCursorSlot } from './database-errors';

describe(CursorSlots.name, () => {
  it('hands out its slots, then each one given back to the first waiting', async () => {
    const slots = new CursorSlots(2, 1_000, 30_000);
    await slots.take();
    await slots.take();
    const order: string[] = [];
    const first = slots.take().then(() => order.push('first'));
    const second = slots.take().then(() => order.push('second'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toStrictEqual([]);
    slots.give();
    await first;
    expect(order).toStrictEqual(['first']);
    slots.give();
    await second;
    expect(order).toStrictEqual(['first', 'second']);
  });

  it('fails a wait past its time as an exhausted pool does (503), and forgets it', async () => {
    const slots = new CursorSlots(1, 20, 30_000);
    await slots.take();
    const late = slots.take();
    await expect(late).rejects.toThrow(new NoCursorSlot(20).message);
    expect(isDatabaseUnavailable(await late.catch((e: unknown) => e))).toBe(
      true,
    );
    // The slot given back is free again, not handed to the wait that failed.
    slots.give();
    await expect(slots.take()).resolves.toBeUndefined();
  });
});
