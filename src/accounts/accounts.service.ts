import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import { AccountProviderResponse } from './accounts.dto';
import { toAccountProviders } from './accounts.mapper';
import { AccountsRepository } from './accounts.repository';

@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async listAccounts(
    caller: Principal,
    identityId: string,
  ): Promise<AccountProviderResponse[]> {
    const rows = await this.accounts.findProviderAccounts(
      caller.tenantId,
      identityId,
    );
    return toAccountProviders(
      rows,
      caller.kind === 'access' ? caller.accountId : null,
    );
  }
}
