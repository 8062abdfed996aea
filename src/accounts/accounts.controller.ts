import { Controller, Get } from '@nestjs/common';
import { Access } from '../auth/access.decorator';
import { Caller, Target } from '../auth/caller.decorator';
import type { Principal } from '../auth/principal';
import { AccountProviderResponse } from './accounts.dto';
import { AccountsService } from './accounts.service';

@Controller(':tenant/api/identity/v1')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get('accounts')
  @Access('current')
  getCurrentAccounts(
    @Caller() caller: Principal & { kind: 'access' },
  ): Promise<AccountProviderResponse[]> {
    return this.accounts.listAccounts(caller, caller.identityId);
  }

  @Get(':id/accounts')
  @Access('identity-relations')
  getAccounts(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
  ): Promise<AccountProviderResponse[]> {
    return this.accounts.listAccounts(caller, target.identityId);
  }
}
