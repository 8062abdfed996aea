import { ConsumedTooSlowly, pulled } from './pulled';

/** A producer of 1, 2, 3 that records what it did and whether `emit` said go on. */
function counting(fail?: Error) {
  const log: string[] = [];
  const produce = async (emit: (n: number) => Promise<boolean>) => {
    log.push('start');
    try {
      for (const n of [1, 2, 3]) {
        log.push(`produce ${n}`);
        if (!(await emit(n))) {
          log.push(`stopped after ${n}`);
          return;
        }
      }
      if (fail) throw fail;
    } finally {
      log.push('end');
    }
  };
  return { log, produce };
}

describe('pulled', () => {
  it('hands over each value when it is asked for, and ends with the producer', async () => {
    const { log, produce } = counting();
    const values = pulled(produce);
    expect(log).toStrictEqual([]);
    expect(await values.next()).toStrictEqual({ value: 1, done: false });
    expect(log).toStrictEqual(['start', 'produce 1']);
    expect(await values.next()).toStrictEqual({ value: 2, done: false });
    expect(log).toStrictEqual(['start', 'produce 1', 'produce 2']);
    const rest: number[] = [];
    for await (const n of values) rest.push(n);
    expect(rest).toStrictEqual([3]);
    expect(log.at(-1)).toBe('end');
  });

  it('stops the producer, and waits for it, when the iteration is left', async () => {
    const { log, produce } = counting();
    for await (const n of pulled(produce)) if (n === 2) break;
    expect(log).toStrictEqual([
      'start',
      'produce 1',
      'produce 2',
      'stopped after 2',
      'end',
    ]);
  });

  it('throws what the producer throws, after the values before it', async () => {
    const { produce } = counting(new Error('broken'));
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const n of pulled(produce)) seen.push(n);
      })(),
    ).rejects.toThrow('broken');
    expect(seen).toStrictEqual([1, 2, 3]);
  });

  it('stops the producer when the consumer throws', async () => {
    const { log, produce } = counting();
    const values = pulled(produce);
    await values.next();
    await expect(values.throw(new Error('consumer'))).rejects.toThrow(
      'consumer',
    );
    expect(log).toStrictEqual(['start', 'produce 1', 'stopped after 1', 'end']);
  });

  it('ends at once for a producer that emits nothing', async () => {
    const values = pulled<number>(async () => undefined);
    expect(await values.next()).toStrictEqual({
      value: undefined,
      done: true,
    });
  });
});

describe('pulled within a time', () => {
  it('fails the producer waiting to be asked, and the next value asked for', async () => {
    const { log, produce } = counting();
    const values = pulled(produce, 20);
    expect(await values.next()).toStrictEqual({ value: 1, done: false });
    // Nothing is asked for: the producer is let go all the same.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(log).toStrictEqual(['start', 'produce 1', 'end']);
    await expect(values.next()).rejects.toThrow(
      new ConsumedTooSlowly(20).message,
    );
  });

  it('does not fail an iteration that ends in time', async () => {
    const { produce } = counting();
    const seen: number[] = [];
    for await (const n of pulled(produce, 1_000)) seen.push(n);
    expect(seen).toStrictEqual([1, 2, 3]);
  });
});
