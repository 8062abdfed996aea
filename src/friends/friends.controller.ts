import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { Principal } from '../auth/principal';
import {
  ApiIdentityId,
  ApiIdentityRoute,
  ApiPaging,
  LINK,
} from '../common/http/api-docs';
import { PageQuery, setNextLink, toPage } from '../common/pagination';
import { FriendResponse } from './friends.dto';
import { FriendsService } from './friends.service';

@ApiTags('friends')
@Controller(':tenant/api/identity/v1')
export class FriendsController {
  constructor(private readonly friends: FriendsService) {}

  @Get('friends')
  @Access('current')
  @ApiOperation({ summary: 'The friends of the caller' })
  @ApiIdentityRoute()
  @ApiPaging()
  @ApiOkResponse({
    description: 'the friends, by display name then identityId',
    type: [FriendResponse],
    headers: LINK,
  })
  getCurrentFriends(
    @Caller() caller: Principal & { kind: 'access' },
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    return this.page(caller.tenantId, caller.identityId, query, req, res);
  }

  @Get(':id/friends')
  @Access('identity-relations')
  @ApiOperation({ summary: 'The friends of an identity' })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @ApiPaging()
  @ApiOkResponse({
    description: 'the friends, by display name then identityId',
    type: [FriendResponse],
    headers: LINK,
  })
  getFriends(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
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
    const found = await this.friends.listFriends(tenantId, identityId, page);
    if (found.more && found.last)
      setNextLink(res, req.path, page.limit!, found.last);
    // The body comes serialized from the database.
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    return `[${found.items}]`;
  }
}
