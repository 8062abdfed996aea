// The two representation rules every response shares (decisions.md):
// a field without a value is left out, never null; lastLogin is UTC as
// YYYY-MM-DDThh:mm:ss.fff with no offset.

/** `YYYY-MM-DDThh:mm:ss.fff` in UTC, no offset. */
export function formatUtcDateTime(date: Date): string {
  return date.toISOString().slice(0, 23);
}

/** Copies `value` into `target[key]` unless it is null or undefined. */
export function setPresent<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: T[K] | null | undefined,
): void {
  if (value !== null && value !== undefined) target[key] = value;
}

/** Copies a list into `target[key]` unless it is empty. */
export function setNonEmpty<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: (T[K] & unknown[]) | null | undefined,
): void {
  if (value && value.length > 0) target[key] = value;
}

/** A copy of `record` without its null or undefined keys. */
export function withoutNulls<T extends object>(
  record: T,
): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(
    Object.entries(record).filter(([, v]) => v !== null && v !== undefined),
  ) as { [K in keyof T]: Exclude<T[K], null> };
}
