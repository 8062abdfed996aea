import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  Put,
  Query,
} from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access } from '../common/http/access.decorator';
import { Caller, Target } from './caller.decorator';
import type { AccessCaller, Principal } from './principal';
import {
  ApiConditionalGet,
  ApiIdentityId,
  ApiIdentityRoute,
  NoContent,
  ApiIfMatch,
  ApiMergedRedirect,
  WHO,
} from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { conditional } from '../common/http/conditional';
import type { AccessTarget } from './caller.decorator';
import {
  IdentityQuery,
  IDENTITY_VIEW_SCHEMA,
  IdentityResponse,
  ReducedIdentityResponse,
} from './identity.dto';
import { UPDATE_BODY_SCHEMA } from './identity-update.schema';
import type { IdentityUpdate, PartialIdentityResponse } from './identity.dto';
import { IdentityService } from './identity.service';
import { UpdateIdentityPipe } from './update-identity.pipe';
import { type Exchange, Http } from '../common/http/exchange';
import { API_PREFIX } from '../common/http/route-table';

const WITH_ETAG = headers(...RATE_LIMIT, 'ETag');

/** A GET's answer: the identity, whole or reduced, and 304 to its ETag. */
const ApiIdentityView = () =>
  applyDecorators(
    ApiConditionalGet(),
    ApiExtraModels(IdentityResponse, ReducedIdentityResponse),
    ApiOkResponse({
      description: 'the identity',
      schema: IDENTITY_VIEW_SCHEMA,
      headers: WITH_ETAG,
    }),
  );

@ApiTags('identity')
@Controller(API_PREFIX)
export class IdentityController {
  constructor(private readonly identities: IdentityService) {}

  @Get()
  @Access('current')
  @ApiOperation({
    summary: 'The identity of the caller',
    description: `A field without a value is left out. ${WHO.current}`,
  })
  @ApiIdentityRoute()
  @ApiIdentityView()
  async getCurrentIdentity(
    @Caller() caller: AccessCaller,
    @Query() query: IdentityQuery,
    @Http() http: Exchange,
  ): Promise<PartialIdentityResponse | undefined> {
    const { body, etag } = await this.identities.currentIdentity(
      caller,
      query.fields,
    );
    return conditional(http, etag, body);
  }

  @Get(':id')
  @Access('identity')
  @ApiOperation({
    summary: 'An identity of the tenant; a friend sees its public part only',
    description: WHO.identity,
  })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @ApiIdentityView()
  @ApiMergedRedirect()
  async getIdentity(
    @Caller() caller: Principal,
    @Target() target: AccessTarget,
    @Query() query: IdentityQuery,
    @Http() http: Exchange,
  ): Promise<PartialIdentityResponse | undefined> {
    const { body, etag } = await this.identities.identity(
      caller,
      target,
      query.fields,
    );
    return conditional(http, etag, body);
  }

  @Put()
  @Access('current')
  @ApiOperation({
    summary:
      'Update the identity of the caller: fields left out keep their values, null clears',
    description: `Values follow the import format's rules; read-only and unknown fields are 400, each named in errors. A new emailAddress or mobilePhone is no longer verified. A refused request changes nothing. ${WHO.current}`,
  })
  @ApiIdentityRoute(412, 413, 415)
  @ApiBody({ schema: UPDATE_BODY_SCHEMA })
  @ApiIfMatch()
  @ApiOkResponse({
    description: 'the identity',
    type: IdentityResponse,
    headers: WITH_ETAG,
  })
  async updateCurrentIdentity(
    @Caller() caller: AccessCaller,
    @Body(UpdateIdentityPipe) update: IdentityUpdate,
    @Headers('if-match') ifMatch: string | undefined,
    @Http() { res }: Exchange,
  ): Promise<PartialIdentityResponse> {
    const { body, etag } = await this.identities.updateCurrentIdentity(
      caller,
      update,
      ifMatch,
    );
    res.setHeader('ETag', etag);
    return body;
  }

  @Delete()
  @Access('current')
  @ApiOperation({
    summary:
      'Delete the identity of the caller, with its accounts, friendships, roles and tokens',
    description: `In one transaction; afterwards its tokens are 401. ${WHO.current}`,
  })
  @ApiIdentityRoute(412)
  @ApiIfMatch()
  @NoContent('deleted')
  deleteCurrentIdentity(
    @Caller() caller: AccessCaller,
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
  @ApiOperation({
    summary:
      'Delete an identity (itself, an admin, or an app with identities:delete)',
    description:
      'A friend gets 403, an app token without identities:delete 403, anyone else 404. A merged-away id is 404: only reads follow a merge.',
  })
  @ApiIdentityRoute(404, 412)
  @ApiIdentityId()
  @ApiIfMatch()
  @NoContent('deleted')
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
