import type { Collection, Page } from '../pagination';
import { CommandContext } from './command';

/** Required as a command runs: help and wrong usage load no validator (src/cli.ts). */
const jsonBodyPipe = (): typeof import('../validation/json-body.pipe') =>
  require('../validation/json-body.pipe');

export const count = (n: number, one: string, many: string) =>
  `${n} ${n === 1 ? one : many}`;

/** A line on standard output. */
export function printLine(context: CommandContext, line: string): void {
  context.write(`${line}\n`);
}

/** A value as indented JSON. */
export function printJson(context: CommandContext, value: object): void {
  printLine(context, JSON.stringify(value, null, 2));
}

/** Every element of a paged collection, a JSON line each. */
export async function printAll(
  context: CommandContext,
  fetch: (page: Page) => Promise<Collection<object[]>>,
): Promise<void> {
  let page: Page = { limit: 1000 };
  for (;;) {
    const { items, next } = await fetch(page);
    for (const item of items) printLine(context, JSON.stringify(item));
    if (!next) return;
    page = next;
  }
}

/**
 * A body checked as the admin API checks it (unknown keys refused, every
 * problem named); a key set to null is left out, so that `set` can remove
 * an optional one.
 */
export function checkedBody<T extends object>(
  rules: new () => T,
  keys: readonly string[],
  body: object,
): T {
  const given = Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== null),
  );
  const { JsonBodyPipe } = jsonBodyPipe();
  return new JsonBodyPipe(rules, keys as (keyof T & string)[]).transform(given);
}
