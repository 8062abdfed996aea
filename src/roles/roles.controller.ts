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
import { PageQuery, sendPage, toPage } from '../common/pagination';
import { RoleResponse } from './roles.dto';
import { roleKey, RolesService } from './roles.service';

@ApiTags('roles')
@Controller(':tenant/api/identity/v1')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get('roles')
  @Access('current')
  @ApiOperation({ summary: 'The roles of the caller' })
  @ApiIdentityRoute()
  @ApiPaging()
  @ApiOkResponse({
    description: 'the roles, by name',
    type: [RoleResponse],
    headers: LINK,
  })
  getCurrentRoles(
    @Caller() caller: Principal & { kind: 'access' },
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RoleResponse[]> {
    return this.page(caller.tenantId, caller.identityId, query, req, res);
  }

  @Get(':id/roles')
  @Access('identity-relations')
  @ApiOperation({ summary: 'The roles of an identity' })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @ApiPaging()
  @ApiOkResponse({
    description: 'the roles, by name',
    type: [RoleResponse],
    headers: LINK,
  })
  getRoles(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RoleResponse[]> {
    return this.page(caller.tenantId, target.identityId, query, req, res);
  }

  private async page(
    tenantId: string,
    identityId: string,
    query: PageQuery,
    req: Request,
    res: Response,
  ) {
    const page = toPage(query, 1);
    const roles = await this.roles.listRoles(tenantId, identityId, page);
    return sendPage(res, req.path, page, roles, roleKey);
  }
}
