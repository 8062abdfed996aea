import {
  Body,
  Controller,
  Headers,
  Param,
  Query,
  UseInterceptors,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SCIM_PREFIX } from '../../common/http/route-table';
import { type ScimCall, Scim } from '../scim-call';
import { ScimContentType } from '../scim-content-type.interceptor';
import { listResponse, ScimList } from '../scim-list';
import { GroupRoute } from './groups.api-docs';
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

  @GroupRoute('list')
  async getGroups(
    @Scim() scim: ScimCall,
    @Query() query: ScimGroupListQuery,
  ): Promise<ScimList<ScimGroup>> {
    const page = pageOf(query);
    const { total, startIndex, groups } = await this.groups.listGroups(
      scope(scim, query),
      { filter: query.filter, ...page },
    );
    return listResponse(groups, total, startIndex);
  }

  @GroupRoute('search')
  searchGroups(
    @Scim() scim: ScimCall,
    @Body() body: unknown,
  ): Promise<ScimList<ScimGroup>> {
    return this.getGroups(scim, searchQuery(body));
  }

  @GroupRoute('create')
  async createGroup(
    @Scim() scim: ScimCall,
    @Query() query: ScimAttributesQuery,
    @Body() body: unknown,
  ): Promise<ScimGroup> {
    const group = await this.groups.createGroup(scope(scim, query), body);
    scim.res.setHeader('Location', group.meta.location);
    return tagged(scim, group);
  }

  @GroupRoute('get')
  async getGroup(
    @Scim() scim: ScimCall,
    @Param('id', GROUP_ID) id: string,
    @Query() query: ScimAttributesQuery,
  ): Promise<ScimGroup> {
    return tagged(scim, await this.groups.getGroup(scope(scim, query), id));
  }

  @GroupRoute('replace')
  async replaceGroup(
    @Scim() scim: ScimCall,
    @Param('id', GROUP_ID) id: string,
    @Query() query: ScimAttributesQuery,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<ScimGroup> {
    const group = await this.groups.replaceGroup(
      scope(scim, query),
      id,
      body,
      ifMatch,
    );
    return tagged(scim, group);
  }

  /** 204 with the new ETag: a Group's members can be many, and neither directory reads them here. */
  @GroupRoute('patch')
  async patchGroup(
    @Scim() scim: ScimCall,
    @Param('id', GROUP_ID) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    const group = await this.groups.patchGroup(
      { ...scope(scim, {}), projection: NO_MEMBERS },
      id,
      body,
      ifMatch,
    );
    tagged(scim, group);
  }

  @GroupRoute('delete')
  async deleteGroup(
    @Scim() scim: ScimCall,
    @Param('id', GROUP_ID) id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    await this.groups.deleteGroup(scim.tenantId, id, ifMatch);
  }
}

const NO_MEMBERS = { displayName: true, externalId: true, members: false };

function scope(
  { tenantId, base }: ScimCall,
  query: ScimAttributesQuery,
): GroupScope {
  return {
    tenantId,
    base,
    projection: projectionOf(query.attributes, query.excludedAttributes),
  };
}

/** The Group, its version set as the ETag. */
function tagged({ res }: ScimCall, group: ScimGroup): ScimGroup {
  res.setHeader('ETag', group.meta.version);
  return group;
}
