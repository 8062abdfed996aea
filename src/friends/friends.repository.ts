import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Prisma } from '../generated/prisma/client';
import { IDENTITY_FIELDS } from '../identity/identity-fields';
import { FRIEND_FIELDS, FriendField } from './friends.dto';
import { Collection, Page } from '../common/pagination';
import { appendEventsOf } from '../events/events.repository';

/** A page of friends as PostgreSQL serialized it: a JSON array. */
export type FriendsPage = Collection<string>;

const column = (field: FriendField) => IDENTITY_FIELDS[field].column;
/** The friend's columns, read from table `identity` (alias i). */
const COLUMNS = Prisma.raw(
  FRIEND_FIELDS.map((f) => `i.${column(f)}`).join(', '),
);
/**
 * A friend's entry, named as its fields: an empty picture list becomes null,
 * and json_strip_nulls then leaves every null out — the representation rule
 * the identity mapper applies (a test compares the two).
 */
const ENTRY = Prisma.raw(
  FRIEND_FIELDS.map((f) =>
    IDENTITY_FIELDS[f].kind === 'urls'
      ? `nullif(page.${column(f)}, '{}') AS "${f}"`
      : `page.${column(f)} AS "${f}"`,
  ).join(', '),
);

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
    const [found] = await this.database.query<{
      items: string | null;
      fetched: number;
      lastName: string | null;
      lastId: string | null;
    }>(Prisma.sql`
      WITH fetched AS (
        SELECT coalesce(i.display_name, '') AS sort_name, ${COLUMNS}
          FROM identity i
         WHERE i.tenant_id = ${tenantId}
           AND i.identity_id = ANY (ARRAY(SELECT f.friend_id FROM friendship f
                                           WHERE f.tenant_id = ${tenantId} AND f.identity_id = ${identityId}))
           AND (${afterId}::text IS NULL
                OR (coalesce(i.display_name, ''), i.identity_id) > (${afterName}::text, ${afterId}::text))
         ORDER BY sort_name, i.identity_id
         LIMIT ${limit}::int + 1
      ), numbered AS (
        SELECT fetched.*, row_number() OVER (ORDER BY sort_name, identity_id) AS n FROM fetched
      ), page AS (
        SELECT * FROM numbered WHERE ${limit}::int IS NULL OR n <= ${limit}::int
      )
      SELECT (SELECT string_agg(json_strip_nulls(row_to_json((
                SELECT f FROM (SELECT ${ENTRY}) AS f
              )))::text, ',' ORDER BY n) FROM page) AS items,
             (SELECT count(*)::int FROM numbered) AS fetched,
             last.sort_name AS "lastName", last.identity_id AS "lastId"
        FROM (SELECT 1) AS one
        LEFT JOIN (SELECT sort_name, identity_id FROM page ORDER BY n DESC LIMIT 1) AS last ON true`);
    const items = `[${found.items ?? ''}]`;
    // The sort key of the last friend: its display name ('' when absent), its id.
    if (limit === null || found.fetched <= limit || found.lastId === null)
      return { items };
    return {
      items,
      next: { limit, after: [found.lastName ?? '', found.lastId] },
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
    this.database.readFromPrimary();
    const [row] = await this.database.query<{
      added: number;
      friendExists: boolean;
    }>(Prisma.sql`
      WITH friend AS (
        SELECT identity_id FROM identity
         WHERE tenant_id = ${tenantId} AND identity_id = ${friendId}
      ), added AS (
        INSERT INTO friendship (tenant_id, identity_id, friend_id)
        SELECT ${tenantId}, pair.a, pair.b
          FROM (VALUES (${identityId}, ${friendId}), (${friendId}, ${identityId})) AS pair (a, b)
         WHERE EXISTS (SELECT 1 FROM friend)
        ON CONFLICT DO NOTHING
        RETURNING identity_id AS "identityId"
      ), event AS (${appendEventsOf('added', tenantId, 'updated', ['friends'])})
      SELECT (SELECT count(*)::int FROM added) AS added,
             EXISTS (SELECT 1 FROM friend) AS "friendExists"`);
    return row.friendExists ? row.added > 0 : undefined;
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
    this.database.readFromPrimary();
    const [row] = await this.database.query<{ removed: number }>(Prisma.sql`
      WITH removed AS (
        DELETE FROM friendship
         WHERE tenant_id = ${tenantId}
           AND ((identity_id = ${identityId} AND friend_id = ${friendId})
             OR (identity_id = ${friendId} AND friend_id = ${identityId}))
        RETURNING identity_id AS "identityId"
      ), event AS (${appendEventsOf('removed', tenantId, 'updated', ['friends'])})
      SELECT count(*)::int AS removed FROM removed`);
    return row.removed > 0;
  }
}
