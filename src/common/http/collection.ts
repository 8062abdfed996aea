import { Logger, StreamableFile } from '@nestjs/common';
import {
  Collection,
  encodeCursor,
  Page,
  pageOf,
  PageQuery,
  SortOrder,
  StreamedJson,
} from '../pagination';
import { conditional, conditionalJson, JSON_TYPE } from './conditional';
import type { Exchange } from './exchange';
import { onDemand } from './on-demand';

/** What a collection's elements come as: objects, their JSON, or their JSON streamed. */
type Items = unknown[] | string | StreamedJson;

/** What answers a collection: its JSON, its stream, or nothing (304). */
export type CollectionAnswer = string | StreamableFile | undefined;

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
 * Answers JSON too long to hold whole as it is read (chunked, as each
 * piece comes; backpressure from the client's connection paces the reads),
 * or 304 without reading it. An error once the answer has begun can only
 * cut the connection: the client sees a body that ends too soon.
 */
async function streamedJson(
  http: Exchange,
  { tag, pieces, patienceMs }: StreamedJson,
): Promise<StreamableFile | undefined> {
  http.res.setHeader('Content-Type', JSON_TYPE);
  if (conditional(http, tag, true) === undefined) {
    await pieces.return();
    return undefined;
  }
  // A client that stops reading is cut off once the connection has been
  // idle that long, which lets go of what the pieces hold.
  // (Destroyed, the response emits no error for the stream's logger.)
  if (patienceMs !== undefined)
    http.res.setTimeout(patienceMs, () => {
      brokeOff(`Not read for ${patienceMs} ms`);
      http.res.destroy();
    });
  // Read a piece at a time, as the response takes them: the rest stays
  // where it is read from.
  return new StreamableFile(onDemand(pieces), {
    type: JSON_TYPE,
  }).setErrorLogger((error: Error) => brokeOff(error.message));
}

const STREAM_LOG = new Logger('Collection');
const brokeOff = (why: string) =>
  STREAM_LOG.warn(`A streamed answer broke off: ${why}`);

/**
 * Answers the page `query` asks for of a collection ordered by `order`, as
 * `read` reads it; the next page's link repeats `filters`.
 */
export function answerPage(
  http: Exchange,
  query: PageQuery,
  order: SortOrder,
  read: (page: Page) => Promise<Collection<unknown[] | string>>,
  filters?: Filters,
): Promise<string | undefined>;
/** The same of a collection whose whole JSON may stream. */
export function answerPage(
  http: Exchange,
  query: PageQuery,
  order: SortOrder,
  read: (page: Page) => Promise<Collection<Items>>,
  filters?: Filters,
): Promise<CollectionAnswer>;
export async function answerPage(
  http: Exchange,
  query: PageQuery,
  order: SortOrder,
  read: (page: Page) => Promise<Collection<Items>>,
  filters?: Filters,
): Promise<CollectionAnswer> {
  const { items, next } = await read(pageOf(query, order));
  // A streamed collection is a whole one: no page follows it.
  if (typeof items === 'object' && 'pieces' in items)
    return streamedJson(http, items);
  return answerCollection(http, { items, next }, filters);
}
