import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { AccessCaller, Principal } from '../auth/principal';
import { ApiList } from '../common/http/api-docs';
import { answerCollection } from '../common/http/collection';
import { API_PREFIX } from '../common/http/route-table';
import { pageOf, PageQuery } from '../common/pagination';
import { FriendResponse } from './friends.dto';
import { FRIENDS_ORDER, FriendsService } from './friends.service';

@ApiTags('friends')
@Controller(API_PREFIX)
export class FriendsController {
  constructor(private readonly friends: FriendsService) {}

  @Get('friends')
  @Access('current')
  @ApiList('friends', 'display name then identityId', FriendResponse, 'current')
  async getCurrentFriends(
    @Caller() caller: AccessCaller,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const page = pageOf(query, FRIENDS_ORDER);
    return answerCollection(
      req,
      res,
      await this.friends.listFriends(caller.tenantId, caller.identityId, page),
    );
  }

  @Get(':id/friends')
  @Access('identity-relations')
  @ApiList(
    'friends',
    'display name then identityId',
    FriendResponse,
    'relations',
  )
  async getFriends(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const page = pageOf(query, FRIENDS_ORDER);
    return answerCollection(
      req,
      res,
      await this.friends.listFriends(caller.tenantId, target.identityId, page),
    );
  }
}
