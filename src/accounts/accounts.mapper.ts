import { setPresent } from '../common/representation';
import { AccountProviderResponse, AccountResponse } from './accounts.dto';
import { ProviderAccountRecord } from './accounts.repository';

/**
 * Groups provider/account rows (ordered by provider, then account) into one
 * entry per provider. `currentAccountId` is the account the calling token
 * was issued for.
 */
export function toAccountProviders(
  rows: ProviderAccountRecord[],
  currentAccountId: string | null,
): AccountProviderResponse[] {
  const entries: AccountProviderResponse[] = [];
  let entry: AccountProviderResponse | undefined;
  let multiple = false;
  for (const row of rows) {
    if (entry?.accountProviderId !== row.accountProviderId) {
      entry = {
        accountProviderId: row.accountProviderId,
        accounts: [],
        canAddAnotherAccount: true,
        signInUrl: row.signInUrl,
      };
      setPresent(entry, 'displayName', row.providerDisplayName);
      setPresent(entry, 'providerImageUrl', row.providerImageUrl);
      multiple = row.allowsMultipleAccounts;
      entries.push(entry);
    }
    if (row.accountId === null) continue;
    entry.accounts.push(toAccount(row, currentAccountId));
    entry.canAddAnotherAccount = multiple;
  }
  return entries;
}

function toAccount(
  row: ProviderAccountRecord,
  currentAccountId: string | null,
): AccountResponse {
  const account: AccountResponse = {
    accountId: row.accountId!,
    issuedUserId: row.issuedUserId!,
    isCurrent: row.accountId === currentAccountId,
  };
  setPresent(
    account,
    'accountPrivatePersonalIdentifier',
    row.accountPrivatePersonalIdentifier,
  );
  setPresent(account, 'accountProfileUrl', row.accountProfileUrl);
  setPresent(account, 'displayName', row.displayName);
  setPresent(account, 'emailAddress', row.emailAddress);
  setPresent(account, 'pictureUrl', row.pictureUrl);
  return account;
}
