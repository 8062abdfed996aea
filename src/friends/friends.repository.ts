import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Page } from '../common/pagination';

/** A page of friends as PostgreSQL serialized it. */
export interface FriendsPage {
  /** The friends' JSON objects, comma-separated (no brackets). */
  items: string;
  /** Whether friends follow this page. */
  more: boolean;
  /** The sort key (name or '', id) of the page's last friend, if any. */
  last: [string, string] | null;
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
    const [found] = await this.database.prisma.$queryRaw<
      {
        items: string | null;
        fetched: number;
        lastName: string | null;
        lastId: string | null;
      }[]
    >`
      WITH fetched AS (
        SELECT i.identity_id, coalesce(i.display_name, '') AS sort_name, i.display_name,
               i.small_pictures, i.medium_pictures, i.large_pictures
          FROM identity i
         WHERE i.tenant_id = ${tenantId}
           AND i.identity_id = ANY (ARRAY(SELECT f.friend_id FROM friendship f
                                           WHERE f.tenant_id = ${tenantId} AND f.identity_id = ${identityId}))
           AND (${afterId}::text IS NULL
                OR (coalesce(i.display_name, ''), i.identity_id) > (${afterName}::text, ${afterId}::text))
         ORDER BY 2, 1
         LIMIT ${limit}::int + 1
      ), numbered AS (
        SELECT fetched.*, row_number() OVER (ORDER BY sort_name, identity_id) AS n FROM fetched
      ), page AS (
        SELECT * FROM numbered WHERE ${limit}::int IS NULL OR n <= ${limit}::int
      )
      SELECT (SELECT string_agg(json_strip_nulls(row_to_json((
                SELECT f FROM (SELECT page.identity_id AS "identityId",
                                      page.display_name AS "displayName",
                                      nullif(page.small_pictures, '{}') AS "smallPictures",
                                      nullif(page.medium_pictures, '{}') AS "mediumPictures",
                                      nullif(page.large_pictures, '{}') AS "largePictures") AS f
              )))::text, ',' ORDER BY n) FROM page) AS items,
             (SELECT count(*)::int FROM numbered) AS fetched,
             last.sort_name AS "lastName", last.identity_id AS "lastId"
        FROM (SELECT 1) AS one
        LEFT JOIN (SELECT sort_name, identity_id FROM page ORDER BY n DESC LIMIT 1) AS last ON true`;
    return {
      items: found.items ?? '',
      more: limit !== null && found.fetched > limit,
      last: found.lastId === null ? null : [found.lastName ?? '', found.lastId],
    };
  }
}
