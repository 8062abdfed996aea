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

/**
 * Answers a collection: its JSON with a tag of its bytes (304 when the
 * client holds it), and `Link: <…>; rel="next"` (RFC 8288) when a page
 * follows. The link repeats neither the token nor other parameters.
 */
export function answerCollection(
  http: Exchange,
  { items, next }: Collection<unknown[] | string>,
): string | undefined {
  if (next)
    http.res.setHeader(
      'Link',
      `<${http.req.path}?limit=${next.limit}&cursor=${encodeCursor(next.after)}>; rel="next"`,
    );
  return conditionalJson(
    http,
    typeof items === 'string' ? items : JSON.stringify(items),
  );
}

/**
 * Answers the page `query` asks for of a collection ordered by `order`, as
 * `read` reads it.
 */
export async function answerPage(
  http: Exchange,
  query: PageQuery,
  order: SortOrder,
  read: (page: Page) => Promise<Collection<unknown[] | string>>,
): Promise<string | undefined> {
  return answerCollection(http, await read(pageOf(query, order)));
}
