import { Injectable } from '@nestjs/common';
import { Page } from '../common/pagination';
import { setNonEmpty, setPresent } from '../common/representation';
import { FriendResponse } from './friends.dto';
import { FriendRecord, FriendsRepository } from './friends.repository';

@Injectable()
export class FriendsService {
  constructor(private readonly friends: FriendsRepository) {}

  async listFriends(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<FriendResponse[]> {
    return (await this.friends.findFriends(tenantId, identityId, page)).map(
      toFriendResponse,
    );
  }
}

/** The sort key a cursor carries. */
export const friendKey = (friend: FriendResponse) => [
  friend.displayName ?? '',
  friend.identityId,
];

export function toFriendResponse(row: FriendRecord): FriendResponse {
  const friend: FriendResponse = { identityId: row.identityId };
  setPresent(friend, 'displayName', row.displayName);
  setNonEmpty(friend, 'smallPictures', row.smallPictures);
  setNonEmpty(friend, 'mediumPictures', row.mediumPictures);
  setNonEmpty(friend, 'largePictures', row.largePictures);
  return friend;
}
