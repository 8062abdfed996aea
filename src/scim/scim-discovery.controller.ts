import { Controller, Get, Param, Req, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { SCIM_PREFIX } from '../common/http/route-table';
import { ScimRoute, scimContent } from './scim-api-docs';
import { ScimContentType } from './scim-content-type.interceptor';
import { ScimDiscoveryService } from './scim-discovery.service';
import { RESOURCE_TYPES, SCHEMAS } from './scim-schemas';
import { scimBase } from './scim-url';

const DOCUMENT = { type: 'object', additionalProperties: true };
const ok = (description: string) =>
  ApiResponse({
    status: 200,
    description,
    headers: headers(...RATE_LIMIT),
    content: scimContent(DOCUMENT),
  });

/** The discovery endpoints of RFC 7644 §4. */
@ApiTags('scim')
@Controller(SCIM_PREFIX)
@UseInterceptors(ScimContentType)
export class ScimDiscoveryController {
  constructor(private readonly discovery: ScimDiscoveryService) {}

  @Get('ServiceProviderConfig')
  @ApiOperation({
    summary: 'What this SCIM service provider supports',
    description:
      'RFC 7644 §4: patch, filter (with its maxResults) and ETags are supported; sort, bulk and changePassword are not.',
  })
  @ScimRoute()
  @ok('the service provider configuration')
  getServiceProviderConfig(@Req() req: Request) {
    return this.discovery.serviceProviderConfig(scimBase(req));
  }

  @Get('ResourceTypes')
  @ApiOperation({
    summary: 'The resource types: User and Group',
    description:
      'A ListResponse of User (with the identity extension) and Group.',
  })
  @ScimRoute()
  @ok('a ListResponse of the resource types')
  getResourceTypes(@Req() req: Request) {
    return this.discovery.resourceTypes(scimBase(req));
  }

  @Get('ResourceTypes/:id')
  @ApiOperation({ summary: 'One resource type', description: 'User or Group.' })
  @ScimRoute(404)
  @ApiParam({
    name: 'id',
    schema: { type: 'string', enum: RESOURCE_TYPES.map((t) => t.id) },
  })
  @ok('the resource type')
  getResourceType(@Req() req: Request, @Param('id') id: string) {
    return this.discovery.resourceType(scimBase(req), id);
  }

  @Get('Schemas')
  @ApiOperation({
    summary: 'The schemas of the resources, every attribute described',
    description:
      'A ListResponse of the User, identity extension and Group schemas (RFC 7643 §7).',
  })
  @ScimRoute()
  @ok('a ListResponse of the schemas')
  getSchemas(@Req() req: Request) {
    return this.discovery.schemas(scimBase(req));
  }

  @Get('Schemas/:id')
  @ApiOperation({ summary: 'One schema', description: 'A schema by its URN.' })
  @ScimRoute(404)
  @ApiParam({
    name: 'id',
    schema: { type: 'string', enum: SCHEMAS.map((s) => s.id) },
  })
  @ok('the schema')
  getSchema(@Req() req: Request, @Param('id') id: string) {
    return this.discovery.schema(scimBase(req), id);
  }
}
