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
import {
  ApiBody,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller } from '../identity/caller.decorator';
import type { Principal } from '../identity/principal';
import {
  headers,
  RATE_LIMIT,
  ResponseHeader,
} from '../common/http/api-headers';
import { ApiIfMatch } from '../common/http/api-docs';
import { SCIM_PREFIX } from '../common/http/route-table';
import {
  IDENTITY_ID,
  IDENTITY_ID_MAX_LENGTH,
} from '../common/validation/field-rules';
import {
  PATCH_OP_BODY,
  ScimRoute,
  scimContent,
  SEARCH_REQUEST_BODY,
  USER_BODY,
} from './scim-api-docs';
import { ScimContentType } from './scim-content-type.interceptor';
import type { ScimList } from './scim-list';
import type { ScimUser } from './scim-user.mapper';
import { searchQuery } from './scim-search';
import { ScimAttributesQuery, ScimListQuery } from './scim-users.dto';
import { ScimUserAnswer, ScimUsersService } from './scim-users.service';
import { scimBase } from './scim-url';
import { USER_ID } from './scim-id.pipe';

const RESOURCE = { type: 'object', additionalProperties: true };
const answer = (
  status: number,
  description: string,
  ...extra: ResponseHeader[]
) =>
  ApiResponse({
    status,
    description,
    headers: headers(...RATE_LIMIT, 'ETag', ...extra),
    content: scimContent(RESOURCE),
  });
const ID = ApiParam({
  name: 'id',
  description: 'the identityId',
  schema: {
    type: 'string',
    pattern: IDENTITY_ID.source,
    maxLength: IDENTITY_ID_MAX_LENGTH,
  },
});
const IF_MATCH = ApiIfMatch();
const BODY = ApiBody({
  schema: USER_BODY,
  description: 'a SCIM User (application/scim+json or application/json)',
});

/** Users (RFC 7644 §3): the tenant's identities. */
@ApiTags('scim')
@Controller(`${SCIM_PREFIX}/Users`)
@UseInterceptors(ScimContentType)
export class ScimUsersController {
  constructor(private readonly users: ScimUsersService) {}

  @Get()
  @ScimRoute()
  @ApiOperation({
    summary: 'Users a filter matches, a page at a time',
    description:
      'filter, startIndex and count (paged by id), attributes or excludedAttributes. sortBy is not supported and is ignored.',
  })
  @ApiResponse({
    status: 200,
    description: 'a ListResponse',
    headers: headers(...RATE_LIMIT),
    content: scimContent(RESOURCE),
  })
  getUsers(
    @Caller() caller: Principal,
    @Query() query: ScimListQuery,
    @Req() req: Request,
  ): Promise<ScimList<ScimUser>> {
    return this.users.list(caller.tenantId, scimBase(req), query);
  }

  @Post('.search')
  @HttpCode(200)
  @ScimRoute(413, 415)
  @ApiOperation({
    summary: 'Users a SearchRequest matches (RFC 7644 §3.4.3)',
    description:
      'The query of GET /Users as a body: filter, startIndex, count, attributes or excludedAttributes (each a list or a comma-separated string).',
  })
  @ApiBody({ schema: SEARCH_REQUEST_BODY })
  @ApiResponse({
    status: 200,
    description: 'a ListResponse',
    headers: headers(...RATE_LIMIT),
    content: scimContent(RESOURCE),
  })
  searchUsers(
    @Caller() caller: Principal,
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<ScimList<ScimUser>> {
    return this.users.list(caller.tenantId, scimBase(req), searchQuery(body));
  }

  @Post()
  @HttpCode(201)
  @ScimRoute(409, 413, 415)
  @ApiOperation({
    summary: 'Create a User',
    description:
      'The service assigns its id. userName is required and unique in the tenant (409 uniqueness).',
  })
  @BODY
  @answer(201, 'the new User', 'Location')
  async createUser(
    @Caller() caller: Principal,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScimUser> {
    const user = await this.users.create(caller.tenantId, scimBase(req), body);
    res.setHeader('Location', user.location);
    return send(res, user);
  }

  @Get(':id')
  @ScimRoute(404)
  @ApiOperation({
    summary: 'A User',
    description: 'attributes or excludedAttributes reduce it.',
  })
  @ID
  @answer(200, 'the User')
  async getUser(
    @Caller() caller: Principal,
    @Param('id', USER_ID) id: string,
    @Query() query: ScimAttributesQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScimUser> {
    return send(
      res,
      await this.users.get(caller.tenantId, scimBase(req), id, query),
    );
  }

  @Put(':id')
  @ScimRoute(404, 409, 412, 413, 415)
  @ApiOperation({
    summary: 'Replace a User',
    description:
      'Attributes left out are cleared; the identity extension only when the body carries it. Read-only attributes are ignored.',
  })
  @ID
  @IF_MATCH
  @BODY
  @answer(200, 'the User')
  async replaceUser(
    @Caller() caller: Principal,
    @Param('id', USER_ID) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScimUser> {
    return send(
      res,
      await this.users.replace(
        caller.tenantId,
        scimBase(req),
        id,
        body,
        ifMatch,
      ),
    );
  }

  @Patch(':id')
  @ScimRoute(404, 409, 412, 413, 415)
  @ApiOperation({
    summary: 'Change a User with add, replace and remove operations',
    description:
      'RFC 7644 §3.5.2, with or without path, value filters included; op names in any case, and "True"/"False" strings for booleans, as Entra ID sends them.',
  })
  @ID
  @IF_MATCH
  @ApiBody({ schema: PATCH_OP_BODY, description: 'a PatchOp' })
  @answer(200, 'the User')
  async patchUser(
    @Caller() caller: Principal,
    @Param('id', USER_ID) id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ScimUser> {
    return send(
      res,
      await this.users.patch(caller.tenantId, scimBase(req), id, body, ifMatch),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @ScimRoute(404, 412)
  @ApiOperation({
    summary: 'Delete a User',
    description:
      'As the identity API deletes: with its accounts, friendships, roles and tokens, in one transaction.',
  })
  @ID
  @IF_MATCH
  @ApiResponse({
    status: 204,
    description: 'deleted',
    headers: headers(...RATE_LIMIT),
  })
  deleteUser(
    @Caller() caller: Principal,
    @Param('id', USER_ID) id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.users.delete(caller.tenantId, id, ifMatch);
  }
}

function send(res: Response, user: ScimUserAnswer): ScimUser {
  res.setHeader('ETag', user.etag);
  return user.body;
}
