/**
 * What `produce` hands to `emit`, as an async generator that asks for each
 * value in turn: for work that must stay inside a callback's scope (a
 * transaction's) while its results are consumed outside it, at the
 * consumer's pace.
 *
 * `produce` starts when the first value is asked for. Each `emit` waits
 * until the next value is asked for, and answers false once the iteration
 * has been left (returned or thrown out of): `produce` then stops. The
 * generator ends when `produce` returns, throws what it throws, and once
 * left waits for `produce` to be over, so that nothing it holds outlives
 * the iteration. With `withinMs`, an iteration still going on after that
 * long fails with ConsumedTooSlowly: the `emit` waiting throws it, and so
 * does the next value asked for, so that what `produce` holds is let go
 * even when no value is ever asked for again.
 */
export async function* pulled<T>(
  produce: (emit: (value: T) => Promise<boolean>) => Promise<void>,
  withinMs?: number,
): AsyncGenerator<T, void, undefined> {
  let late: ConsumedTooSlowly | undefined;
  let held: { value: T } | undefined;
  let over: { failure?: { error: unknown } } | undefined;
  let left = false;
  // The consumer waiting for a value, and the producer waiting to be asked.
  let woken: (() => void) | undefined;
  let asked: (() => void) | undefined;
  const wake = () => {
    const resume = woken;
    woken = undefined;
    resume?.();
  };
  const ask = () => {
    const resume = asked;
    asked = undefined;
    resume?.();
  };
  const timer =
    withinMs === undefined
      ? undefined
      : setTimeout(() => {
          late = new ConsumedTooSlowly(withinMs);
          ask();
        }, withinMs);
  const produced = produce(async (value) => {
    if (late) throw late;
    if (left) return false;
    held = { value };
    wake();
    await new Promise<void>((resolve) => (asked = resolve));
    if (late) throw late;
    return !left;
  }).then(
    () => {
      clearTimeout(timer);
      over = {};
      wake();
    },
    (error: unknown) => {
      clearTimeout(timer);
      over = { failure: { error } };
      wake();
    },
  );
  try {
    for (;;) {
      if (!held && !over)
        await new Promise<void>((resolve) => (woken = resolve));
      if (held) {
        const { value } = held;
        held = undefined;
        yield value;
        ask();
      } else if (over?.failure) throw over.failure.error;
      else return;
    }
  } finally {
    left = true;
    ask();
    await produced;
  }
}

/** What was produced was not all consumed in the time allowed (pulled). */
export class ConsumedTooSlowly extends Error {
  constructor(withinMs: number) {
    super(`Not read to the end within ${withinMs} ms`);
  }
}
