import {
  Body,
  Controller,
  Headers,
  Param,
  Query,
  UseInterceptors,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SCIM_PREFIX } from '../common/http/route-table';
import { type ScimCall, Scim } from './scim-call';
import { ScimContentType } from './scim-content-type.interceptor';
import type { ScimList } from './scim-list';
import type { ScimUser } from './scim-user.mapper';
import { searchQuery } from './scim-search';
import { UserRoute } from './scim-users.api-docs';
import { ScimAttributesQuery, ScimListQuery } from './scim-users.dto';
import { ScimUserAnswer, ScimUsersService } from './scim-users.service';
import { USER_ID } from './scim-id.pipe';

/** Users (RFC 7644 §3): the tenant's identities. */
@ApiTags('scim')
@Controller(`${SCIM_PREFIX}/Users`)
@UseInterceptors(ScimContentType)
export class ScimUsersController {
  constructor(private readonly users: ScimUsersService) {}

  @UserRoute('list')
  getUsers(
    @Scim() scim: ScimCall,
    @Query() query: ScimListQuery,
  ): Promise<ScimList<ScimUser>> {
    return this.users.list(scim.tenantId, scim.base, query);
  }

  @UserRoute('search')
  searchUsers(
    @Scim() scim: ScimCall,
    @Body() body: unknown,
  ): Promise<ScimList<ScimUser>> {
    return this.users.list(scim.tenantId, scim.base, searchQuery(body));
  }

  @UserRoute('create')
  async createUser(
    @Scim() scim: ScimCall,
    @Body() body: unknown,
  ): Promise<ScimUser> {
    const user = await this.users.create(scim.tenantId, scim.base, body);
    scim.res.setHeader('Location', user.location);
    return tagged(scim, user);
  }

  @UserRoute('get')
  async getUser(
    @Scim() scim: ScimCall,
    @Param('id', USER_ID) id: string,
    @Query() query: ScimAttributesQuery,
  ): Promise<ScimUser> {
    const user = await this.users.get(scim.tenantId, scim.base, id, query);
    return tagged(scim, user);
  }

  @UserRoute('replace')
  async replaceUser(
    @Scim() scim: ScimCall,
    @Param('id', USER_ID) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<ScimUser> {
    const { tenantId, base } = scim;
    return tagged(
      scim,
      await this.users.replace(tenantId, base, id, body, ifMatch),
    );
  }

  @UserRoute('patch')
  async patchUser(
    @Scim() scim: ScimCall,
    @Param('id', USER_ID) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<ScimUser> {
    const { tenantId, base } = scim;
    return tagged(
      scim,
      await this.users.patch(tenantId, base, id, body, ifMatch),
    );
  }

  @UserRoute('delete')
  deleteUser(
    @Scim() scim: ScimCall,
    @Param('id', USER_ID) id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.users.delete(scim.tenantId, id, ifMatch);
  }
}

/** The User of an answer, its version set as the ETag. */
function tagged({ res }: ScimCall, user: ScimUserAnswer): ScimUser {
  res.setHeader('ETag', user.etag);
  return user.body;
}
