import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { RawBuilder, sql } from 'kysely';
import { builder, exists, statement } from '../database/sql';
import { IDENTITY_FIELDS } from '../identity/identity-fields';
import { FRIEND_FIELDS, FriendField } from './friends.dto';
import { Collection, Page, StreamedJson } from '../common/pagination';
import { eventsOf } from '../events/events.repository';

/** A page of friends as PostgreSQL serialized it (a JSON array), or a whole long list streamed. */
export type FriendsPage = Collection<string | StreamedJson>;

const column = (field: FriendField) => IDENTITY_FIELDS[field].column;
/** The friend's columns, read from table `identity` (alias i). */
const COLUMNS = FRIEND_FIELDS.map(
  (f) =>
    `i.${column(f)}` as `i.${(typeof IDENTITY_FIELDS)[FriendField]['column']}`,
);
/**
 * A friend's entry, named as its fields: an empty picture list becomes null,
 * and json_strip_nulls then leaves every null out — the representation rule
 * the identity mapper applies (a test compares the two).
 */
const ENTRY = sql.raw(
  FRIEND_FIELDS.map((f) =>
    IDENTITY_FIELDS[f].kind === 'urls'
      ? `nullif(page.${column(f)}, '{}') AS "${f}"`
      : `page.${column(f)} AS "${f}"`,
  ).join(', '),
);

interface FriendsParams {
  tenantId: string;
  identityId: string;
  afterName: string | null;
  afterId: string | null;
  limit: number | null;
  /** A whole list's longest length held at once (HELD_WHOLE), or null for a page. */
  heldAtMost: number | null;
}

/** The friends' ids, as an array: gathered first, their identities fetched by primary key. */
const friendIds = (p: Pick<FriendsParams, 'tenantId' | 'identityId'>) =>
  sql<string[]>`ARRAY(${builder
    .selectFrom('friendship as f')
    .select('f.friend_id')
    .where('f.tenant_id', '=', p.tenantId)
    .where('f.identity_id', '=', p.identityId)})`;

/**
 * The friends among `ids` after the cursor's sort key, in order: the
 * display name (absent sorts as empty), then the id.
 */
const friendsAfter = (
  p: Omit<FriendsParams, 'limit' | 'heldAtMost'>,
  ids: RawBuilder<string[]>,
) =>
  builder
    .selectFrom('identity as i')
    .select(sql<string>`coalesce(i.display_name, '')`.as('sort_name'))
    .select(COLUMNS)
    .where('i.tenant_id', '=', p.tenantId)
    .where('i.identity_id', '=', sql<string>`ANY (${ids})`)
    .where(
      sql<boolean>`(${p.afterId}::text IS NULL
            OR (coalesce(i.display_name, ''), i.identity_id) > (${p.afterName}::text, ${p.afterId}::text))`,
    )
    .orderBy('sort_name')
    .orderBy('i.identity_id');

/** A friend's entry of the list: its JSON, as the page's alias `page` holds it. */
const entryJson = sql<string>`json_strip_nulls(row_to_json((
  SELECT f FROM (SELECT ${ENTRY}) AS f
)))::text`;

/**
 * A page of friends and where it ends; see findFriends. The sort key is
 * the display name (absent sorts as empty), then the id.
 */
const FRIENDS = statement((p: FriendsParams) =>
  builder
    .with('ids', () => builder.selectNoFrom(friendIds(p).as('a')))
    .with('fetched', () =>
      friendsAfter(p, sql<string[]>`(SELECT a FROM ids)::text[]`)
        // A whole list too long to hold is not read here: it streams.
        .where(
          sql<boolean>`(${p.heldAtMost}::int IS NULL
            OR (SELECT cardinality(a) FROM ids) <= ${p.heldAtMost}::int)`,
        )
        .limit(sql<number>`${p.limit}::int + 1`),
    )
    .with('numbered', (db) =>
      db
        .selectFrom('fetched')
        .selectAll()
        .select(
          sql<string>`row_number() OVER (ORDER BY sort_name, identity_id)`.as(
            'n',
          ),
        ),
    )
    .with('page', (db) =>
      db
        .selectFrom('numbered')
        .selectAll()
        .where(sql<boolean>`(${p.limit}::int IS NULL OR n <= ${p.limit}::int)`),
    )
    .selectFrom(builder.selectNoFrom(sql.lit(1).as('x')).as('one'))
    .leftJoin(
      (db) =>
        db
          .selectFrom('page')
          .select(['sort_name', 'identity_id'])
          .orderBy('n', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      eb
        .selectFrom('page')
        .select(
          sql<string>`'[' || coalesce(string_agg(${entryJson}, ',' ORDER BY n), '') || ']'`.as(
            'items',
          ),
        )
        .as('items'),
      eb
        .selectFrom('numbered')
        .select(sql<number>`count(*)::int`.as('fetched'))
        .as('fetched'),
      'last.sort_name as lastName',
      'last.identity_id as lastId',
      sql<boolean>`coalesce((SELECT cardinality(a) FROM ids) > ${p.heldAtMost}::int, false)`.as(
        'tooLong',
      ),
    ]),
);

/**
 * The bytes of JSON a piece of a streamed list starts a new one after: a
 * piece holds whole entries, up to this many bytes and one entry more (an
 * entry is at most some 80 KB: three picture lists at their longest).
 * Each piece becomes a string on V8's heap; with pieces of 16 KB, four a
 * read, the service serves as many lists a second as with pieces of 64 KB
 * two a read (within the runs' spread) and peaks 20–40 MB lower under
 * their load (docs/benchmark.md, "Long lists stream").
 */
const PIECE_BYTES = 16 * 1024;

/**
 * The cursor of a whole list too long to hold at once (findFriends): its
 * first row (part 0) is the tag of the list's JSON, as contentTag would
 * compute it (the unpadded base64url of its SHA-256, of which the tag is
 * the first 22 characters); then the entries in pieces of about PIECE_BYTES
 * (parts 1, 2, …, each entry's part given by the bytes before it), joined
 * by commas. The entries are written once (MATERIALIZED) for both.
 */
const FRIEND_LIST = statement(
  (p: Omit<FriendsParams, 'limit' | 'heldAtMost'>) =>
    sql`DECLARE friend_list NO SCROLL CURSOR FOR ${builder
      .with('page', () =>
        friendsAfter(p, friendIds(p)).select(
          sql<string>`row_number() OVER (ORDER BY coalesce(i.display_name, ''), i.identity_id)`.as(
            'n',
          ),
        ),
      )
      .with(
        (cte) => cte('entry').materialized(),
        (db) => db.selectFrom('page').select(['page.n', entryJson.as('json')]),
      )
      .with('placed', (db) =>
        db.selectFrom('entry').select([
          'entry.n',
          'entry.json',
          sql<number>`((sum(octet_length(json) + 1) OVER (ORDER BY n)
              - octet_length(json) - 1) / ${sql.lit(PIECE_BYTES)} + 1)::int`.as(
            'part',
          ),
        ]),
      )
      .selectFrom('entry')
      .select([
        sql<number>`0`.as('part'),
        sql<string>`rtrim(translate(encode(sha256(convert_to(
          '[' || coalesce(string_agg(json, ',' ORDER BY n), '') || ']', 'UTF8'
        )), 'base64'), '+/', '-_'), '=')`.as('text'),
      ])
      .unionAll((db) =>
        db
          .selectFrom('placed')
          .select([
            'placed.part',
            sql<string>`string_agg(json, ',' ORDER BY n)`.as('text'),
          ])
          .groupBy('placed.part'),
      )
      .orderBy('part')}`,
);

/** The next four pieces of the list (some 64 KB): what one read of the cursor holds. */
const NEXT_PIECES = statement(
  () => sql<{ part: number; text: string }>`FETCH 4 FROM friend_list`,
);

interface FriendshipParams {
  tenantId: string;
  identityId: string;
  friendId: string;
}

/**
 * Makes the two identities friends, both ways, when the friend exists;
 * see addFriendship.
 */
const ADD_FRIENDSHIP = statement((p: FriendshipParams) =>
  builder
    .with('friend', (db) =>
      db
        .selectFrom('identity')
        .select('identity_id')
        .where('tenant_id', '=', p.tenantId)
        .where('identity_id', '=', p.friendId),
    )
    .with('added', (db) =>
      db
        .insertInto('friendship')
        .columns(['tenant_id', 'identity_id', 'friend_id'])
        .expression((eb) =>
          eb
            .selectFrom('friend')
            .select([
              eb.val(p.tenantId).as('tenant_id'),
              eb.val(p.identityId).as('identity_id'),
              'friend.identity_id as friend_id',
            ])
            .unionAll(
              eb
                .selectFrom('friend')
                .select([
                  eb.val(p.tenantId).as('tenant_id'),
                  'friend.identity_id as identity_id',
                  eb.val(p.identityId).as('friend_id'),
                ]),
            ),
        )
        .onConflict((conflict) => conflict.doNothing())
        .returning('identity_id as identityId'),
    )
    .with('event', () => eventsOf('added', p.tenantId, 'updated', ['friends']))
    .selectNoFrom((eb) => [
      eb
        .selectFrom('added')
        .select(sql<number>`count(*)::int`.as('added'))
        .as('added'),
      exists(eb, eb.selectFrom('friend').select(sql.lit(1).as('one'))).as(
        'friendExists',
      ),
    ]),
);

/** Ends the friendship of the two identities, both ways; see removeFriendship. */
const REMOVE_FRIENDSHIP = statement((p: FriendshipParams) =>
  builder
    .with('removed', (db) =>
      db
        .deleteFrom('friendship')
        .where('tenant_id', '=', p.tenantId)
        .where((eb) =>
          eb.or([
            eb.and([
              eb('identity_id', '=', p.identityId),
              eb('friend_id', '=', p.friendId),
            ]),
            eb.and([
              eb('identity_id', '=', p.friendId),
              eb('friend_id', '=', p.identityId),
            ]),
          ]),
        )
        .returning('identity_id as identityId'),
    )
    .with('event', () =>
      eventsOf('removed', p.tenantId, 'updated', ['friends']),
    )
    .selectFrom('removed')
    .select(sql<number>`count(*)::int`.as('removed')),
);

/**
 * The longest whole list read and held at once (some 100 KB of JSON); a
 * longer one streams (findFriends).
 */
export const HELD_WHOLE = 500;

/**
 * The cursor's rows as the list's tag, then the pieces of its JSON array.
 * Leaving it leaves the cursor.
 */
async function* tagThenPieces(
  reads: AsyncGenerator<{ part: number; text: string }[]>,
): AsyncGenerator<string, void, undefined> {
  let opened = false;
  for await (const rows of reads)
    for (const { part, text } of rows) {
      if (part === 0) yield `"${text.slice(0, 22)}"`;
      else {
        yield (opened ? ',' : '[') + text;
        opened = true;
      }
    }
  yield opened ? ']' : '[]';
}

@Injectable()
export class FriendsRepository {
  constructor(private readonly database: Database) {}

  /**
   * A page of friends ordered by display name (absent sorts as empty), then
   * id, both byte by byte, after the page's cursor. The friends' ids are
   * gathered first and their identities fetched by primary key: a join lets
   * PostgreSQL scan the whole tenant for a long list. PostgreSQL writes the
   * page's JSON (absent name and empty picture lists left out, compact like
   * JSON.stringify) and returns it as one value, so a list of thousands
   * costs the service one string, not a row and an object per friend.
   */
  async findFriends(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<FriendsPage> {
    const [afterName, afterId] = page.after ?? [null, null];
    const limit = page.limit ?? null;
    const [found] = await this.database.read.rows(FRIENDS, {
      tenantId,
      identityId,
      afterName,
      afterId,
      limit,
      heldAtMost: limit === null ? HELD_WHOLE : null,
    });
    if (found.tooLong)
      return {
        items: await this.streamFriends({
          tenantId,
          identityId,
          afterName,
          afterId,
        }),
      };
    // The array whole, brackets and all, as PostgreSQL wrote it: a string
    // made in JavaScript of it would be copied again (flattened) when it
    // is hashed and sent, a megabyte for a list of thousands.
    const items = found.items ?? '[]';
    // The sort key of the last friend: its display name ('' when absent), its id.
    if (
      limit === null ||
      (found.fetched ?? 0) <= limit ||
      found.lastId === null
    )
      return { items };
    return {
      items,
      next: { limit, after: [found.lastName ?? '', found.lastId] },
    };
  }

  /**
   * A whole list longer than HELD_WHOLE, read through a cursor some 128
   * kilobytes at a time as the answer is sent (Database.cursor), from one
   * snapshot: its tag first, then its JSON.
   */
  private async streamFriends(
    params: Omit<FriendsParams, 'limit' | 'heldAtMost'>,
  ): Promise<StreamedJson> {
    const list = tagThenPieces(
      this.database.cursor(FRIEND_LIST, params, {
        statement: NEXT_PIECES,
        size: 4,
      }),
    );
    // Read, the tag leaves the list started: leaving it now ends the cursor.
    const tag = await list.next();
    if (tag.done) throw new Error('A friend list ended before its tag');
    return {
      tag: tag.value,
      pieces: list,
      patienceMs: this.database.cursorHoldMs,
    };
  }

  /**
   * Makes the two identities friends (both directions, as the import
   * format stores them), with an `updated` event naming `friends` for each
   * identity whose list changed, in one statement. Undefined when `friendId`
   * is no identity of the tenant; otherwise whether they were not friends
   * before.
   */
  async addFriendship(
    tenantId: string,
    identityId: string,
    friendId: string,
  ): Promise<boolean | undefined> {
    const [row] = await this.database.primary.rows(ADD_FRIENDSHIP, {
      tenantId,
      identityId,
      friendId,
    });
    return row.friendExists ? (row.added ?? 0) > 0 : undefined;
  }

  /**
   * Ends the friendship of the two identities (both directions), with an
   * `updated` event naming `friends` for each, in one statement; whether
   * they were friends.
   */
  async removeFriendship(
    tenantId: string,
    identityId: string,
    friendId: string,
  ): Promise<boolean> {
    const [row] = await this.database.primary.rows(REMOVE_FRIENDSHIP, {
      tenantId,
      identityId,
      friendId,
    });
    return row.removed > 0;
  }
}
