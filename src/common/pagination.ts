import { IsOptional, Matches, ValidateBy } from 'class-validator';
import { InvalidRequest } from './errors';
import { isStorableText } from './validation/field-rules';

export const MAX_PAGE_LIMIT = 1000;
export const CURSOR_MAX_LENGTH = 2048;
export const CURSOR = new RegExp(`^[A-Za-z0-9_-]{1,${CURSOR_MAX_LENGTH}}$`);

const isPageLimit = (value: unknown) =>
  typeof value === 'string' &&
  /^[1-9]\d*$/.test(value) &&
  Number(value) <= MAX_PAGE_LIMIT;

/** `?limit=` (1–MAX_PAGE_LIMIT) and `?cursor=` of the friends and roles collections. */
export class PageQuery {
  @IsOptional()
  @ValidateBy(
    { name: 'isPageLimit', validator: { validate: isPageLimit } },
    { message: `must be a whole number from 1 to ${MAX_PAGE_LIMIT}` },
  )
  limit?: string;

  @IsOptional()
  @Matches(CURSOR, { message: 'is not a cursor this service issued' })
  cursor?: string;
}

export interface Page {
  limit?: number;
  /** The sort key of the last element already seen. */
  after?: string[];
}

/**
 * A collection, whole or a page of it: its elements (or their JSON, when the
 * database wrote it) and, when elements follow, the page that comes next.
 */
export interface Collection<T> {
  items: T;
  next?: Required<Page>;
}

/**
 * A collection's JSON too long to hold whole (a list of thousands): its
 * strong tag, known before any of it is read, then its text in pieces.
 * Read to the end or left (`pieces.return()`), it lets go of what it
 * holds (a database cursor).
 */
export interface StreamedJson {
  readonly tag: string;
  readonly pieces: AsyncGenerator<string, void, undefined>;
  /**
   * How long its reader may keep it waiting, in milliseconds, when it holds
   * something another request may need (a connection of the pool).
   */
  readonly patienceMs?: number;
}

/** The fields a collection is ordered by: its cursors carry their values. */
export type SortOrder = readonly string[];

/** A cursor is the sort key of the last element of a page, opaque to clients. */
export function encodeCursor(key: string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The page `query` asks for, in a collection ordered by `order`. */
export function pageOf(query: PageQuery, order: SortOrder): Page {
  const page: Page = {
    limit: query.limit === undefined ? undefined : Number(query.limit),
  };
  if (query.cursor !== undefined)
    page.after = decodeCursor(query.cursor, order);
  return page;
}

const NOT_ISSUED = 'is not a cursor this service issued';

/**
 * The 400 of a cursor the service did not issue (or whose key it cannot
 * read): the same body as the query's validation gives a cursor that is
 * not base64url.
 */
export const invalidCursor = () =>
  new InvalidRequest(`cursor ${NOT_ISSUED}`, [
    { field: 'cursor', message: NOT_ISSUED },
  ]);

// A cursor is unsigned: its key values are read back as the column they
// are compared with holds them, so that a crafted one is a 400 and never a
// value the database refuses (out of range, not a UUID, a year it lacks).

const INTEGER = /^(0|-?[1-9]\d{0,18})$/;

function integerKey(value: string, bits: 32 | 64): bigint {
  if (!INTEGER.test(value)) throw invalidCursor();
  const n = BigInt(value);
  if (BigInt.asIntN(bits, n) !== n) throw invalidCursor();
  return n;
}

/** A key of an `integer` column (a position). */
export const int4Key = (value: string): number => Number(integerKey(value, 32));

/** A key of a `bigint` column (an event's or an attempt's id). */
export const int8Key = (value: string): bigint => integerKey(value, 64);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A key of a `uuid` column. */
export function uuidKey(value: string): string {
  if (!UUID.test(value)) throw invalidCursor();
  return value;
}

const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * A key of a `timestamptz` column, as the service writes an instant: years
 * 1 to 9999, which every database the service runs on holds.
 */
export function instantKey(value: string): Date {
  const at = new Date(value);
  if (
    !INSTANT.test(value) ||
    Number.isNaN(at.getTime()) ||
    at.toISOString() !== value ||
    at.getUTCFullYear() < 1
  )
    throw invalidCursor();
  return at;
}

function decodeCursor(cursor: string, order: SortOrder): string[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (
    !Array.isArray(key) ||
    key.length !== order.length ||
    !key.every((k) => typeof k === 'string' && isStorableText(k))
  )
    throw invalidCursor();
  return key;
}

/**
 * A page of `rows` fetched with one more than the page's limit: the page's
 * rows, and the next page when there is more.
 */
export function pageFrom<T>(
  rows: T[],
  page: Page,
  keyOf: (row: T) => string[],
): Collection<T[]> {
  if (page.limit === undefined || rows.length <= page.limit)
    return { items: rows };
  const items = rows.slice(0, page.limit);
  return {
    items,
    next: { limit: page.limit, after: keyOf(items[items.length - 1]) },
  };
}
