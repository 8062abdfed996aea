import {
  Collection,
  encodeCursor,
  Page,
  pageOf,
  PageQuery,
  SortOrder,
} from '../pagination';
import { conditionalJson } from './conditional';
import type { Exchange } from './exchange';

/** The parameters that choose a collection's elements (a search's text), by name; unset ones are left out. */
export type Filters = Record<string, string | undefined>;

/**
 * Answers a collection: its JSON with a tag of its bytes (304 when the
 * client holds it), and `Link: <…>; rel="next"` (RFC 8288) when a page
 * follows. The link repeats the collection's `filters`, neither the token
 * nor any other parameter.
 */
export function answerCollection(
  http: Exchange,
  { items, next }: Collection<unknown[] | string>,
  filters: Filters = {},
): string | undefined {
  if (next) {
    const kept = Object.entries(filters)
      .flatMap(([name, value]) =>
        value === undefined ? [] : [`${name}=${encodeURIComponent(value)}&`],
      )
      .join('');
    http.res.setHeader(
      'Link',
      `<${http.req.path}?${kept}limit=${next.limit}&cursor=${encodeCursor(next.after)}>; rel="next"`,
    );
  }
  return conditionalJson(
    http,
    typeof items === 'string' ? items : JSON.stringify(items),
  );
}

/**
 * Answers the page `query` asks for of a collection ordered by `order`, as
 * `read` reads it; the next page's link repeats `filters`.
 */
export async function answerPage(
  http: Exchange,
  query: PageQuery,
  order: SortOrder,
  read: (page: Page) => Promise<Collection<unknown[] | string>>,
  filters?: Filters,
): Promise<string | undefined> {
  return answerCollection(http, await read(pageOf(query, order)), filters);
}
