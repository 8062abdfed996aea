import { Injectable } from '@nestjs/common';
import type { Principal } from '../identity/principal';
import { AccountProviderResponse, AccountResponse } from './accounts.dto';
import { toAccountProviders } from './accounts.mapper';
import {
  AccountConflict,
  AccountNotFound,
  IdentityNotFound,
  InvalidRequest,
} from '../common/errors';
import { isStorableText } from '../common/validation/field-rules';
import { AccountsRepository, NewAccount } from './accounts.repository';
import { LinkTickets } from './link-tickets';

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tickets: LinkTickets,
  ) {}

  /**
   * Records an account of the identity (docs/api.md, recording accounts)
   * and answers it as the accounts list shows it.
   */
  async addAccount(
    tenantId: string,
    identityId: string,
    account: NewAccount,
  ): Promise<AccountResponse> {
    const outcome = await this.accounts.addAccount(
      tenantId,
      identityId,
      account,
    );
    const { accountId, accountProviderId: provider, issuedUserId } = account;
    switch (outcome) {
      case 'no-identity':
        throw new IdentityNotFound(identityId);
      case 'no-provider':
        throw new InvalidRequest(
          `accountProviderId: no account provider "${provider}" in this tenant.`,
          [
            {
              field: 'accountProviderId',
              message: 'is no provider of the tenant',
            },
          ],
        );
      case 'account-in-use':
        throw new AccountConflict(
          'account-in-use',
          `The account "${issuedUserId}" of provider "${provider}" is another identity's, or this one's already.`,
        );
      case 'account-id-taken':
        throw new AccountConflict(
          'account-id-taken',
          `The accountId "${accountId}" is taken in this tenant.`,
        );
      case 'limit-reached':
        throw new AccountConflict(
          'limit-reached',
          `Provider "${provider}" allows one account per identity, and "${identityId}" has one.`,
        );
    }
    const recorded: AccountResponse = {
      accountId,
      issuedUserId,
      isCurrent: false,
    };
    for (const key of [
      'accountPrivatePersonalIdentifier',
      'accountProfileUrl',
      'displayName',
      'emailAddress',
      'pictureUrl',
    ] as const)
      if (account[key] !== null) recorded[key] = account[key];
    return recorded;
  }

  /**
   * Removes an account of the identity; 404 when it has no such account,
   * 409 for the account the calling token was issued for.
   */
  async removeAccount(
    tenantId: string,
    identityId: string,
    accountId: string,
    currentAccountId: string | null = null,
  ): Promise<void> {
    if (accountId === currentAccountId)
      throw new AccountConflict(
        'current-account',
        'This token was issued for that account: sign in with another one to remove it.',
      );
    if (
      !isStorableText(accountId) ||
      !(await this.accounts.removeAccount(tenantId, identityId, accountId))
    )
      throw new AccountNotFound(identityId, accountId);
  }

  async listAccounts(
    caller: Principal,
    identityId: string,
  ): Promise<AccountProviderResponse[]> {
    const rows = await this.accounts.findProviderAccounts(
      caller.tenantId,
      identityId,
    );
    // Only the identity itself links through a browser: its own list
    // gives a provider with link settings the service's link URL.
    if (caller.kind === 'access' && caller.identityId === identityId)
      for (const row of rows)
        if (row.linkable)
          row.signInUrl = await this.tickets.linkUrl(
            caller.tenantId,
            identityId,
            row.accountProviderId,
            row.lastLinkStart,
          );
    return toAccountProviders(
      rows,
      caller.kind === 'access' ? caller.accountId : null,
    );
  }
}
