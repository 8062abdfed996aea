/**
 * Waits until `ready` holds, checking every `everyMs`; after `withinMs`
 * fails with `what` and, when given, `context()` (what the test saw).
 */
export async function until(
  ready: () => boolean | Promise<boolean>,
  {
    what = 'the condition',
    context,
    withinMs = 10_000,
    everyMs = 25,
  }: {
    what?: string;
    context?: () => string;
    withinMs?: number;
    everyMs?: number;
  } = {},
): Promise<void> {
  for (let waited = 0; waited < withinMs; waited += everyMs) {
    if (await ready()) return;
    await new Promise((done) => setTimeout(done, everyMs));
  }
  if (await ready()) return;
  throw new Error(
    `${what} did not hold within ${withinMs / 1000} s${context ? `\n${context()}` : ''}`,
  );
}
