/** An account as the API returns it. */
export interface AccountResponse {
  accountId: string;
  accountPrivatePersonalIdentifier?: string;
  accountProfileUrl?: string;
  displayName?: string;
  emailAddress?: string;
  issuedUserId: string;
  pictureUrl?: string;
  isCurrent: boolean;
}

/** One account provider of the tenant with the identity's accounts there. */
export interface AccountProviderResponse {
  accountProviderId: string;
  accounts: AccountResponse[];
  canAddAnotherAccount: boolean;
  displayName?: string;
  providerImageUrl?: string;
  signInUrl: string;
}
