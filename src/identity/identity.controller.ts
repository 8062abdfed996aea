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
import type { Response } from 'express';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { Principal } from '../auth/principal';
import { IdentityQuery, PartialIdentityResponse } from './identity.dto';
import type { IdentityUpdate } from './identity.dto';
import { IdentityRepresentation, IdentityService } from './identity.service';
import { UpdateIdentityPipe } from './update-identity.pipe';

@Controller(':tenant/api/identity/v1')
export class IdentityController {
  constructor(private readonly identities: IdentityService) {}

  @Get()
  @Access('current')
  async getCurrentIdentity(
    @Caller() caller: Principal & { kind: 'access' },
    @Query() query: IdentityQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PartialIdentityResponse> {
    return withEtag(
      res,
      await this.identities.getIdentity(
        caller.tenantId,
        caller.identityId,
        'full',
        query.fields,
      ),
    );
  }

  @Get(':id')
  @Access('identity')
  async getIdentity(
    @Caller() caller: Principal,
    @Target() target: { identityId: string; view: 'full' | 'public' },
    @Query() query: IdentityQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PartialIdentityResponse> {
    return withEtag(
      res,
      await this.identities.getIdentity(
        caller.tenantId,
        target.identityId,
        target.view,
        query.fields,
      ),
    );
  }

  @Put()
  @Access('current')
  async updateCurrentIdentity(
    @Caller() caller: Principal & { kind: 'access' },
    @Body(UpdateIdentityPipe) update: IdentityUpdate,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PartialIdentityResponse> {
    return withEtag(
      res,
      await this.identities.updateIdentity(
        caller.tenantId,
        caller.identityId,
        update,
        ifMatch,
      ),
    );
  }

  @Delete()
  @Access('current')
  @HttpCode(204)
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
