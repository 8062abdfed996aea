import { Injectable } from '@nestjs/common';
import {
  FriendshipNotFound,
  IdentityNotFound,
  InvalidRequest,
} from '../common/errors';
import { Page } from '../common/pagination';
import { IDENTITY_ID, isStorableText } from '../common/validation/field-rules';
import { FriendsPage, FriendsRepository } from './friends.repository';

@Injectable()
export class FriendsService {
  constructor(private readonly friends: FriendsRepository) {}

  /**
   * Makes `friendId` a friend of the identity, and it of them; nothing when
   * they are friends already. 400 for the identity itself, 404 when the
   * friend is no identity of the tenant.
   */
  async addFriend(
    tenantId: string,
    identityId: string,
    friendId: string,
  ): Promise<void> {
    const friend = checkedFriendId(identityId, friendId);
    const added = await this.friends.addFriendship(
      tenantId,
      identityId,
      friend,
    );
    if (added === undefined) throw new IdentityNotFound(friendId);
  }

  /** Ends their friendship; 404 when they are not friends. */
  async removeFriend(
    tenantId: string,
    identityId: string,
    friendId: string,
  ): Promise<void> {
    const friend = checkedFriendId(identityId, friendId);
    if (!(await this.friends.removeFriendship(tenantId, identityId, friend)))
      throw new FriendshipNotFound(identityId, friendId);
  }

  listFriends(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<FriendsPage> {
    return this.friends.findFriends(tenantId, identityId, page);
  }
}

/**
 * A `{friendId}` that can name a friend: an identityId other than the
 * identity's own (any other string names no identity: 404).
 */
function checkedFriendId(identityId: string, friendId: string): string {
  if (friendId === identityId)
    throw new InvalidRequest('An identity cannot be its own friend.');
  if (!isStorableText(friendId) || !IDENTITY_ID.test(friendId))
    throw new IdentityNotFound(friendId);
  return friendId;
}

/** Friends are ordered by display name (absent as empty), then id. */
export const FRIENDS_ORDER = ['displayName', 'identityId'] as const;
