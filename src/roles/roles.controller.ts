import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { Principal } from '../auth/principal';
import { PageQuery, sendPage, toPage } from '../common/pagination';
import { RoleResponse } from './roles.dto';
import { roleKey, RolesService } from './roles.service';

@Controller(':tenant/api/identity/v1')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get('roles')
  @Access('current')
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
