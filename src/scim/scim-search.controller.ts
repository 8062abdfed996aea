import {
  Body,
  Controller,
  HttpCode,
  Post,
  Req,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Caller } from '../identity/caller.decorator';
import type { Principal } from '../identity/principal';
import { InvalidRequest } from '../common/errors';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { SCIM_PREFIX } from '../common/http/route-table';
import { projectionOf } from './groups/group.mapper';
import { GroupsService } from './groups/groups.service';
import { ScimRoute, scimContent, SEARCH_REQUEST_BODY } from './scim-api-docs';
import { ScimContentType } from './scim-content-type.interceptor';
import { listResponse, ScimList } from './scim-list';
import { searchQuery } from './scim-search';
import { scimBase } from './scim-url';
import { pageOf } from './scim-users.dto';
import { ScimUsersService } from './scim-users.service';

/**
 * A search of every resource type at the service provider's root (RFC 7644
 * §3.4.3): Users by id, then Groups by name, paged as one list. A filter
 * that names an attribute one type lacks matches none of that type; one
 * that neither type can take is 400 invalidFilter.
 */
@ApiTags('scim')
@Controller(SCIM_PREFIX)
@UseInterceptors(ScimContentType)
export class ScimSearchController {
  constructor(
    private readonly users: ScimUsersService,
    private readonly groups: GroupsService,
  ) {}

  @Post('.search')
  @HttpCode(200)
  @ScimRoute(413, 415)
  @ApiOperation({
    summary: 'Users and Groups a SearchRequest matches (RFC 7644 §3.4.3)',
    description:
      'Users by id, then Groups by name, paged as one list; a filter on an attribute one type lacks matches none of that type.',
  })
  @ApiBody({ schema: SEARCH_REQUEST_BODY })
  @ApiResponse({
    status: 200,
    description: 'a ListResponse of Users and Groups',
    headers: headers(...RATE_LIMIT),
    content: scimContent({ type: 'object', additionalProperties: true }),
  })
  async search(
    @Caller() caller: Principal,
    @Body() body: unknown,
    @Req() req: Request,
  ): Promise<ScimList<unknown>> {
    const query = searchQuery(body);
    const { startIndex, count } = pageOf(query);
    const base = scimBase(req);
    const refused: InvalidRequest[] = [];
    const users = await orNone(
      refused,
      this.users.list(
        caller.tenantId,
        base,
        Object.assign(query, {
          startIndex: String(startIndex),
          count: String(count),
        }),
      ),
    );
    const usersTotal = users?.totalResults ?? 0;
    const groups = await orNone(
      refused,
      this.groups.listGroups(
        {
          tenantId: caller.tenantId,
          base,
          projection: projectionOf(query.attributes, query.excludedAttributes),
        },
        {
          filter: query.filter,
          startIndex: Math.max(1, startIndex - usersTotal),
          count: count - (users?.Resources.length ?? 0),
        },
      ),
    );
    if (!users && !groups) throw refused[0];
    return listResponse(
      [...(users?.Resources ?? []), ...(groups?.groups ?? [])],
      usersTotal + (groups?.total ?? 0),
      startIndex,
    );
  }
}

/**
 * A type's answer, or undefined (its refusal kept in `refused`) when the
 * filter names an attribute that type lacks.
 */
async function orNone<T>(
  refused: InvalidRequest[],
  answer: Promise<T>,
): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (
      error instanceof InvalidRequest &&
      error.scimType === 'invalidFilter' &&
      error.message.endsWith('cannot be filtered on.')
    ) {
      refused.push(error);
      return undefined;
    }
    throw error;
  }
}
