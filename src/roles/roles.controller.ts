import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, Target } from '../identity/caller.decorator';
import type { AccessCaller, Principal } from '../identity/principal';
import { RelationList } from '../common/http/api-docs';
import { answerPage } from '../common/http/collection';
import { type Exchange, Http } from '../common/http/exchange';
import { API_PREFIX } from '../common/http/route-table';
import { PageQuery } from '../common/pagination';
import { RoleResponse } from './roles.dto';
import { ROLES_ORDER, RolesService } from './roles.service';

@ApiTags('roles')
@Controller(API_PREFIX)
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @RelationList('roles', 'name', RoleResponse, 'current')
  getCurrentRoles(
    @Caller() caller: AccessCaller,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(http, query, ROLES_ORDER, (page) =>
      this.roles.listRoles(caller.tenantId, caller.identityId, page),
    );
  }

  @RelationList('roles', 'name', RoleResponse, 'relations')
  getRoles(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(http, query, ROLES_ORDER, (page) =>
      this.roles.listRoles(caller.tenantId, target.identityId, page),
    );
  }
}
