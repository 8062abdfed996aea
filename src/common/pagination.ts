import type { Response } from 'express';
import { IsOptional, Matches } from 'class-validator';
import { InvalidRequest } from './errors';

/** `?limit=` (1–1000) and `?cursor=` of the friends and roles collections. */
export class PageQuery {
  @IsOptional()
  @Matches(/^(?:[1-9]\d{0,2}|1000)$/, {
    message: 'must be a whole number from 1 to 1000',
  })
  limit?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,2048}$/, {
    message: 'is not a cursor this service issued',
  })
  cursor?: string;
}

export interface Page {
  limit?: number;
  /** The sort key of the last element already seen. */
  after?: string[];
}

/** A cursor is the sort key of the last element of a page, opaque to clients. */
export function encodeCursor(key: string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function toPage(query: PageQuery, keyLength: number): Page {
  const page: Page = {
    limit: query.limit === undefined ? undefined : Number(query.limit),
  };
  if (query.cursor !== undefined) {
    let key: unknown;
    try {
      key = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
    } catch {
      key = undefined;
    }
    if (
      !Array.isArray(key) ||
      key.length !== keyLength ||
      !key.every((k) => typeof k === 'string' && !k.includes('\u0000'))
    )
      throw new InvalidRequest('The cursor is not one this service issued.', [
        { field: 'cursor', message: 'is not a cursor this service issued' },
      ]);
    page.after = key;
  }
  return page;
}

/**
 * Trims a page fetched with one extra element and, when there is more, sets
 * `Link: <…>; rel="next"` (RFC 8288). The link does not repeat a token.
 */
export function sendPage<T>(
  res: Response,
  path: string,
  page: Page,
  rows: T[],
  keyOf: (row: T) => string[],
): T[] {
  if (page.limit === undefined || rows.length <= page.limit) return rows;
  const items = rows.slice(0, page.limit);
  setNextLink(res, path, page.limit, keyOf(items[items.length - 1]));
  return items;
}

/** `Link: <…>; rel="next"` to the page after the element with sort key `last`. */
export function setNextLink(
  res: Response,
  path: string,
  limit: number,
  last: string[],
): void {
  res.setHeader(
    'Link',
    `<${path}?limit=${limit}&cursor=${encodeCursor(last)}>; rel="next"`,
  );
}
