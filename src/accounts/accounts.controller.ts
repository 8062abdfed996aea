import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { answerCollection } from '../common/http/collection';
import {
  ApiConditionalGet,
  ApiIdentityId,
  ApiIdentityRoute,
  ApiMergedRedirect,
  WHO,
} from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { AccessCaller, Principal } from '../auth/principal';
import { AccountProviderResponse } from './accounts.dto';
import { AccountsService } from './accounts.service';
import { API_PREFIX } from '../common/http/route-table';

@ApiTags('accounts')
@Controller(API_PREFIX)
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('accounts')
  @Access('current')
  @ApiOperation({
    summary: 'The accounts of the caller, one entry per provider of the tenant',
    description: `Entries follow the tenant's provider order; isCurrent marks the account the token was issued for. ${WHO.current}`,
  })
  @ApiIdentityRoute()
  @ApiConditionalGet()
  @ApiOkResponse({
    description: 'one entry per provider, in the tenant order',
    type: [AccountProviderResponse],
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getCurrentAccounts(
    @Caller() caller: AccessCaller,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const accounts = await this.accounts.listAccounts(
      caller,
      caller.identityId,
    );
    return answerCollection(req, res, { items: accounts });
  }

  @Get(':id/accounts')
  @Access('identity-relations')
  @ApiOperation({
    summary:
      'The accounts of an identity, one entry per provider of the tenant',
    description: `Entries follow the tenant's provider order. ${WHO.relations}`,
  })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @ApiConditionalGet()
  @ApiMergedRedirect()
  @ApiOkResponse({
    description: 'one entry per provider, in the tenant order',
    type: [AccountProviderResponse],
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getAccounts(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const accounts = await this.accounts.listAccounts(
      caller,
      target.identityId,
    );
    return answerCollection(req, res, { items: accounts });
  }
}
