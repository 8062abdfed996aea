import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Page } from '../common/pagination';

export interface FriendRecord {
  identityId: string;
  displayName: string | null;
  smallPictures: string[];
  mediumPictures: string[];
  largePictures: string[];
}

@Injectable()
export class FriendsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Friends ordered by display name (absent sorts as empty), then id, both
   * byte by byte; one more than the page's limit, after its cursor. The
   * friends' ids are gathered first and their identities fetched by primary
   * key: a join lets PostgreSQL scan the whole tenant for a long list.
   */
  findFriends(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<FriendRecord[]> {
    const [afterName, afterId] = page.after ?? [null, null];
    const limit = page.limit === undefined ? null : page.limit + 1;
    return this.database.prisma.$queryRaw<FriendRecord[]>`
      SELECT i.identity_id AS "identityId", i.display_name AS "displayName",
             i.small_pictures AS "smallPictures", i.medium_pictures AS "mediumPictures",
             i.large_pictures AS "largePictures"
        FROM identity i
       WHERE i.tenant_id = ${tenantId}
         AND i.identity_id = ANY (ARRAY(SELECT f.friend_id FROM friendship f
                                         WHERE f.tenant_id = ${tenantId} AND f.identity_id = ${identityId}))
         AND (${afterId}::text IS NULL
              OR (coalesce(i.display_name, ''), i.identity_id) > (${afterName}::text, ${afterId}::text))
       ORDER BY coalesce(i.display_name, ''), i.identity_id
       LIMIT ${limit}::int`;
  }
}
