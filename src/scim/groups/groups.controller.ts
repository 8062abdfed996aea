import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller } from '../../identity/caller.decorator';
import type { Principal } from '../../identity/principal';
import { SCIM_PREFIX } from '../../common/http/route-table';
import { ScimContentType } from '../scim-content-type.interceptor';
import { listResponse, ScimList } from '../scim-list';
import { scimBase } from '../scim-url';
import { ApiGroupRoute } from './groups.api-docs';
import { projectionOf, ScimGroup } from './group.mapper';
import { GroupScope, GroupsService } from './groups.service';
import {
  pageOf,
  ScimAttributesQuery,
  ScimGroupListQuery,
} from '../scim-users.dto';
import { GROUP_ID } from '../scim-id.pipe';
import { searchQuery } from '../scim-search';

/** The tenant's roles as SCIM Groups (RFC 7644 §3; docs/scim.md, Groups). */
@ApiTags('scim')
@Controller(SCIM_PREFIX)
@UseInterceptors(ScimContentType)
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get('Groups')
  @ApiGroupRoute('list')
  async getGroups(
    @Caller() caller: Principal,
    @Query() query: ScimGroupListQuery,
    @Req() req: Request,
  ): Promise<ScimList<ScimGroup>> {
    const page = pageOf(query);
    const { total, startIndex, groups } = await this.groups.listGroups(
      scope(caller, req, query),
      { filter: query.filter, ...page },
    );
    return listResponse(groups, total, startIndex);
  }

  @Post('Groups/.search')
  @HttpCode(200)
  @ApiGroupRoute('search')
  searchGroups(
    @Caller() caller: Principal,
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<ScimList<ScimGroup>> {
    return this.getGroups(caller, searchQuery(body), req);
  }

  @Post('Groups')
  @HttpCode(201)
  @ApiGroupRoute('create')
  async createGroup(
    @Caller() caller: Principal,
    @Query() query: ScimAttributesQuery,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScimGroup> {
    const group = await this.groups.createGroup(
      scope(caller, req, query),
      body,
    );
    res.setHeader('Location', group.meta.location);
    return tagged(res, group);
  }

  @Get('Groups/:id')
  @ApiGroupRoute('get')
  async getGroup(
    @Caller() caller: Principal,
    @Param('id', GROUP_ID) id: string,
    @Query() query: ScimAttributesQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScimGroup> {
    return tagged(
      res,
      await this.groups.getGroup(scope(caller, req, query), id),
    );
  }

  @Put('Groups/:id')
  @ApiGroupRoute('replace')
  async replaceGroup(
    @Caller() caller: Principal,
    @Param('id', GROUP_ID) id: string,
    @Query() query: ScimAttributesQuery,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScimGroup> {
    return tagged(
      res,
      await this.groups.replaceGroup(
        scope(caller, req, query),
        id,
        body,
        ifMatch,
      ),
    );
  }

  /** 204 with the new ETag: a Group's members can be many, and neither directory reads them here. */
  @Patch('Groups/:id')
  @HttpCode(204)
  @ApiGroupRoute('patch')
  async patchGroup(
    @Caller() caller: Principal,
    @Param('id', GROUP_ID) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const group = await this.groups.patchGroup(
      { ...scope(caller, req, {}), projection: NO_MEMBERS },
      id,
      body,
      ifMatch,
    );
    res.setHeader('ETag', group.meta.version);
  }

  @Delete('Groups/:id')
  @HttpCode(204)
  @ApiGroupRoute('delete')
  async deleteGroup(
    @Caller() caller: Principal,
    @Param('id', GROUP_ID) id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    await this.groups.deleteGroup(caller.tenantId, id, ifMatch);
  }
}

const NO_MEMBERS = { displayName: true, externalId: true, members: false };

function scope(
  caller: Principal,
  req: Request,
  query: ScimAttributesQuery,
): GroupScope {
  return {
    tenantId: caller.tenantId,
    base: scimBase(req),
    projection: projectionOf(query.attributes, query.excludedAttributes),
  };
}

function tagged(res: Response, group: ScimGroup): ScimGroup {
  res.setHeader('ETag', group.meta.version);
  return group;
}
