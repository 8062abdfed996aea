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

/** Paths of every `__proto__`, `constructor` or `prototype` key in a JSON value. */
export function findUnsafeKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => findUnsafeKeys(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => {
    const child = path ? `${path}.${key}` : key;
    return UNSAFE_KEYS.has(key)
      ? [child]
      : findUnsafeKeys((value as Record<string, unknown>)[key], child);
  });
}
