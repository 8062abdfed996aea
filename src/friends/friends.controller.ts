import { Controller, Delete, Param, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Access } from '../common/http/access.decorator';
import { Caller, Target } from '../identity/caller.decorator';
import type { AccessCaller, Principal } from '../identity/principal';
import {
  ApiIdentityId,
  ApiIdentityRoute,
  NoContent,
  RelationList,
} from '../common/http/api-docs';
import {
  IDENTITY_ID,
  IDENTITY_ID_MAX_LENGTH,
} from '../common/validation/field-rules';
import { answerPage, CollectionAnswer } from '../common/http/collection';
import { type Exchange, Http } from '../common/http/exchange';
import { API_PREFIX } from '../common/http/route-table';
import { PageQuery } from '../common/pagination';
import { FriendResponse } from './friends.dto';
import { FRIENDS_ORDER, FriendsService } from './friends.service';

const FRIEND_ID_DOC = () =>
  ApiParam({
    name: 'friendId',
    description: 'the identityId of the other identity',
    schema: {
      type: 'string',
      pattern: IDENTITY_ID.source,
      maxLength: IDENTITY_ID_MAX_LENGTH,
      example: 'carol',
    },
  });
const WRITERS =
  'App tokens with friends:write only (403 for any other token, an admin’s access token included). Friendship is mutual: both identities’ lists change, each with an updated event naming friends. A merged-away id is 404: only reads follow a merge.';

@ApiTags('friends')
@Controller(API_PREFIX)
export class FriendsController {
  constructor(private readonly friends: FriendsService) {}

  @RelationList(
    'friends',
    'display name then identityId',
    FriendResponse,
    'current',
  )
  getCurrentFriends(
    @Caller() caller: AccessCaller,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<CollectionAnswer> {
    return answerPage(http, query, FRIENDS_ORDER, (page) =>
      this.friends.listFriends(caller.tenantId, caller.identityId, page),
    );
  }

  @RelationList(
    'friends',
    'display name then identityId',
    FriendResponse,
    'relations',
  )
  getFriends(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<CollectionAnswer> {
    return answerPage(http, query, FRIENDS_ORDER, (page) =>
      this.friends.listFriends(caller.tenantId, target.identityId, page),
    );
  }

  @Put(':id/friends/:friendId')
  @Access('identity-friends-write')
  @ApiOperation({
    summary: 'Make two identities friends',
    description: `Idempotent: 204 whether or not they were friends already. 400 for the identity itself, 404 when either is no identity of the tenant. ${WRITERS}`,
  })
  @ApiIdentityRoute(404, 415)
  @ApiIdentityId()
  @FRIEND_ID_DOC()
  @NoContent('they are friends')
  addFriend(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Param('friendId') friendId: string,
  ): Promise<void> {
    return this.friends.addFriend(caller.tenantId, target.identityId, friendId);
  }

  @Delete(':id/friends/:friendId')
  @Access('identity-friends-write')
  @ApiOperation({
    summary: 'End the friendship of two identities',
    description: `404 when they are not friends. ${WRITERS}`,
  })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @FRIEND_ID_DOC()
  @NoContent('they are friends no longer')
  removeFriend(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Param('friendId') friendId: string,
  ): Promise<void> {
    return this.friends.removeFriend(
      caller.tenantId,
      target.identityId,
      friendId,
    );
  }
}
