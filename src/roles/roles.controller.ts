import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../common/http/access.decorator';
import { Caller, Target } from '../identity/caller.decorator';
import type { AccessCaller, Principal } from '../identity/principal';
import { ApiList } from '../common/http/api-docs';
import { answerCollection } from '../common/http/collection';
import { API_PREFIX } from '../common/http/route-table';
import { pageOf, PageQuery } from '../common/pagination';
import { RoleResponse } from './roles.dto';
import { ROLES_ORDER, RolesService } from './roles.service';

@ApiTags('roles')
@Controller(API_PREFIX)
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get('roles')
  @Access('current')
  @ApiList('roles', 'name', RoleResponse, 'current')
  async getCurrentRoles(
    @Caller() caller: AccessCaller,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const page = pageOf(query, ROLES_ORDER);
    return answerCollection(
      req,
      res,
      await this.roles.listRoles(caller.tenantId, caller.identityId, page),
    );
  }

  @Get(':id/roles')
  @Access('identity-relations')
  @ApiList('roles', 'name', RoleResponse, 'relations')
  async getRoles(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const page = pageOf(query, ROLES_ORDER);
    return answerCollection(
      req,
      res,
      await this.roles.listRoles(caller.tenantId, target.identityId, page),
    );
  }
}
