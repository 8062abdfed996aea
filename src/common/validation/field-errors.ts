import { ValidationError } from 'class-validator';

/** One failed rule, named by the JSON path of the offending value. */
export interface FieldError {
  field: string;
  message: string;
}

const GENERIC_MESSAGES: Record<string, string> = {
  whitelistValidation: 'is not a known field',
  nestedValidation: 'must be an object',
};

/** Flattens class-validator's error tree into JSON paths like `a[3].b`. */
export function toFieldErrors(
  errors: ValidationError[],
  parent = '',
): FieldError[] {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    const own = Object.entries(error.constraints ?? {}).map(
      ([name, message]) => ({
        field,
        message: GENERIC_MESSAGES[name] ?? message,
      }),
    );
    return [...own, ...toFieldErrors(error.children ?? [], field)];
  });
}

/** Keys that could reach an object's prototype when copied. */
export const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** How deep a JSON body may nest; the import format itself needs five levels. */
export const MAX_JSON_DEPTH = 32;

/**
 * The values of a JSON document with their paths and depths, parents first,
 * walked with a stack of its own: a hostile body nested thousands of levels
 * deep cannot exhaust the call stack. Stops descending below `maxDepth`.
 */
function* walk(
  root: unknown,
  maxDepth = Infinity,
): Generator<{ value: unknown; path: string; depth: number; key?: string }> {
  const stack: { value: unknown; path: string; depth: number; key?: string }[] =
    [{ value: root, path: '', depth: 0 }];
  while (stack.length) {
    const node = stack.pop()!;
    yield node;
    const { value, path, depth } = node;
    if (typeof value !== 'object' || value === null || depth >= maxDepth)
      continue;
    const children = Array.isArray(value)
      ? value.map((item, i) => ({ value: item, path: `${path}[${i}]` }))
      : Object.keys(value).map((key) => ({
          value: (value as Record<string, unknown>)[key],
          path: path ? `${path}.${key}` : key,
          key,
        }));
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ ...children[i], depth: depth + 1 });
  }
}

/** The path of the first value nested more than `max` levels deep, if any. */
export function tooDeep(
  value: unknown,
  max = MAX_JSON_DEPTH,
): string | undefined {
  for (const node of walk(value, max + 1))
    if (node.depth > max) return node.path;
  return undefined;
}

/**
 * Paths of every `__proto__`, `constructor` or `prototype` key in a JSON
 * value, none below another (what is under a refused key is not looked at):
 * one pass over the value, whatever its shape.
 */
export function findUnsafeKeys(value: unknown): string[] {
  const found: string[] = [];
  type Node = { value: unknown; path: string; unsafe?: boolean };
  const stack: Node[] = [{ value, path: '' }];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.unsafe) {
      found.push(node.path);
      continue;
    }
    if (typeof node.value !== 'object' || node.value === null) continue;
    const parent = node.value;
    const children: Node[] = Array.isArray(parent)
      ? parent.map((item, i) => ({ value: item, path: `${node.path}[${i}]` }))
      : Object.keys(parent).map((key) => ({
          value: (parent as Record<string, unknown>)[key],
          path: node.path ? `${node.path}.${key}` : key,
          unsafe: UNSAFE_KEYS.has(key),
        }));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}
