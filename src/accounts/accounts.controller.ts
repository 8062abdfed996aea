import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiIdentityId, ApiIdentityRoute } from '../common/http/api-docs';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { Principal } from '../auth/principal';
import { AccountProviderResponse } from './accounts.dto';
import { AccountsService } from './accounts.service';

@ApiTags('accounts')
@Controller(':tenant/api/identity/v1')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('accounts')
  @Access('current')
  @ApiOperation({
    summary: 'The accounts of the caller, one entry per provider of the tenant',
  })
  @ApiIdentityRoute()
  @ApiOkResponse({
    description: 'one entry per provider, in the tenant order',
    type: [AccountProviderResponse],
  })
  getCurrentAccounts(
    @Caller() caller: Principal & { kind: 'access' },
  ): Promise<AccountProviderResponse[]> {
    return this.accounts.listAccounts(caller, caller.identityId);
  }

  @Get(':id/accounts')
  @Access('identity-relations')
  @ApiOperation({
    summary:
      'The accounts of an identity, one entry per provider of the tenant',
  })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @ApiOkResponse({
    description: 'one entry per provider, in the tenant order',
    type: [AccountProviderResponse],
  })
  getAccounts(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
  ): Promise<AccountProviderResponse[]> {
    return this.accounts.listAccounts(caller, target.identityId);
  }
}
