import { Injectable } from '@nestjs/common';
import { Page } from '../common/pagination';
import { FriendsPage, FriendsRepository } from './friends.repository';

@Injectable()
export class FriendsService {
  constructor(private readonly friends: FriendsRepository) {}

  listFriends(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<FriendsPage> {
    return this.friends.findFriends(tenantId, identityId, page);
  }
}

/** Friends are ordered by display name (absent as empty), then id. */
export const FRIENDS_ORDER = ['displayName', 'identityId'] as const;
