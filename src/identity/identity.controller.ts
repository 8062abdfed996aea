import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPermanentRedirectResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { Principal } from '../auth/principal';
import { ApiIdentityId, ApiIdentityRoute } from '../common/http/api-docs';
import type { AccessTarget } from '../common/http/request-context';
import {
  IdentityQuery,
  IDENTITY_VIEW_SCHEMA,
  IdentityResponse,
  ReducedIdentityResponse,
  UPDATE_BODY_SCHEMA,
} from './identity.dto';
import type { IdentityUpdate, PartialIdentityResponse } from './identity.dto';
import { IdentityRepresentation, IdentityService } from './identity.service';
import { UpdateIdentityPipe } from './update-identity.pipe';

const ETAG = {
  ETag: {
    description: 'the version of the identity',
    schema: { type: 'string' },
  },
};
const IF_MATCH = ApiHeader({
  name: 'If-Match',
  required: false,
  description: 'write only if the identity still has this ETag',
});

@ApiTags('identity')
@Controller(':tenant/api/identity/v1')
export class IdentityController {
  constructor(private readonly identities: IdentityService) {}

  @Get()
  @Access('current')
  @ApiOperation({ summary: 'The identity of the caller' })
  @ApiIdentityRoute()
  @ApiExtraModels(IdentityResponse, ReducedIdentityResponse)
  @ApiOkResponse({
    description: 'the identity',
    schema: IDENTITY_VIEW_SCHEMA,
    headers: ETAG,
  })
  getCurrentIdentity(
    @Caller() caller: Principal & { kind: 'access' },
    @Query() query: IdentityQuery,
    @Res({ passthrough: true }) res: Response,
  ): PartialIdentityResponse {
    return withEtag(
      res,
      this.identities.represent(caller.identity, 'full', query.fields),
    );
  }

  @Get(':id')
  @Access('identity')
  @ApiOperation({
    summary: 'An identity of the tenant; a friend sees its public part only',
  })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @ApiExtraModels(IdentityResponse, ReducedIdentityResponse)
  @ApiOkResponse({
    description: 'the identity',
    schema: IDENTITY_VIEW_SCHEMA,
    headers: ETAG,
  })
  @ApiPermanentRedirectResponse({
    description: 'the identity was merged into the one at Location',
  })
  getIdentity(
    @Target() target: AccessTarget,
    @Query() query: IdentityQuery,
    @Res({ passthrough: true }) res: Response,
  ): PartialIdentityResponse {
    return withEtag(
      res,
      this.identities.represent(target.identity, target.view, query.fields),
    );
  }

  @Put()
  @Access('current')
  @ApiOperation({
    summary:
      'Update the identity of the caller: fields left out keep their values, null clears',
  })
  @ApiIdentityRoute(412, 413, 415)
  @ApiBody({ schema: UPDATE_BODY_SCHEMA })
  @IF_MATCH
  @ApiOkResponse({
    description: 'the identity',
    type: IdentityResponse,
    headers: ETAG,
  })
  async updateCurrentIdentity(
    @Caller() caller: Principal & { kind: 'access' },
    @Body(UpdateIdentityPipe) update: IdentityUpdate,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PartialIdentityResponse> {
    const { tenantId, identityId, identity } = caller;
    return withEtag(
      res,
      await this.identities.updateIdentity(
        tenantId,
        identityId,
        identity,
        update,
        ifMatch,
      ),
    );
  }

  @Delete()
  @Access('current')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Delete the identity of the caller, with its accounts, friendships, roles and tokens',
  })
  @ApiIdentityRoute(412)
  @IF_MATCH
  @ApiNoContentResponse({ description: 'deleted' })
  deleteCurrentIdentity(
    @Caller() caller: Principal & { kind: 'access' },
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.identities.deleteIdentity(
      caller.tenantId,
      caller.identityId,
      ifMatch,
    );
  }

  @Delete(':id')
  @Access('identity-delete')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Delete an identity (itself, an admin, or an app with identities:delete)',
  })
  @ApiIdentityRoute(404, 412)
  @ApiIdentityId()
  @IF_MATCH
  @ApiNoContentResponse({ description: 'deleted' })
  deleteIdentity(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.identities.deleteIdentity(
      caller.tenantId,
      target.identityId,
      ifMatch,
    );
  }
}

/** Express answers 304 itself when If-None-Match matches this tag. */
function withEtag(res: Response, { body, etag }: IdentityRepresentation) {
  res.setHeader('ETag', etag);
  return body;
}
