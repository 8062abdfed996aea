import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { Principal } from '../auth/principal';
import { PageQuery, sendPage, toPage } from '../common/pagination';
import { FriendResponse } from './friends.dto';
import { friendKey, FriendsService } from './friends.service';

@Controller(':tenant/api/identity/v1')
export class FriendsController {
  constructor(private readonly friends: FriendsService) {}

  @Get('friends')
  @Access('current')
  getCurrentFriends(
    @Caller() caller: Principal & { kind: 'access' },
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FriendResponse[]> {
    return this.page(caller.tenantId, caller.identityId, query, req, res);
  }

  @Get(':id/friends')
  @Access('identity-relations')
  getFriends(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FriendResponse[]> {
    return this.page(caller.tenantId, target.identityId, query, req, res);
  }

  private async page(
    tenantId: string,
    identityId: string,
    query: PageQuery,
    req: Request,
    res: Response,
  ) {
    const page = toPage(query, 2);
    const friends = await this.friends.listFriends(tenantId, identityId, page);
    return sendPage(res, req.path, page, friends, friendKey);
  }
}
