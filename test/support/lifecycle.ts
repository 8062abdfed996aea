/**
 * What the tests of a describe block share, made by a hook of the block
 * (beforeAll, or beforeEach with `each`) and ended by its pair: a stand-in
 * that exists when the block is declared and reads, from the hook's run on,
 * what the hook made. A member read before then is a mistake of the test,
 * and says so.
 */
export function useShared<T extends object>(
  what: string,
  setUp: () => Promise<T>,
  tearDown: (made: T) => Promise<void> = async () => {},
  { each = false } = {},
): T {
  let made: T | undefined;
  (each ? beforeEach : beforeAll)(async () => {
    made = await setUp();
  });
  (each ? afterEach : afterAll)(async () => {
    const ending = made;
    made = undefined;
    if (ending) await tearDown(ending);
  });
  return standIn(what, () => made);
}

/** An object whose members are those of what `current` gives when they are read. */
export function standIn<T extends object>(
  what: string,
  current: () => T | undefined,
): T {
  return new Proxy({} as T, {
    get(_, key) {
      const made = current();
      if (!made)
        throw new Error(
          `${what} is made by a hook: read ${String(key)} in a test or a later hook`,
        );
      return Reflect.get(made, key);
    },
  });
}
