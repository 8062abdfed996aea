// A tenant as the importer writes it and the exporter reads it: plain rows,
// already validated and normalized.

export interface TenantRow {
  id: string;
  name: string;
  adminRoles: string[];
}

export interface ProviderRow {
  accountProviderId: string;
  position: number;
  displayName: string | null;
  providerImageUrl: string | null;
  signInUrl: string;
  allowsMultipleAccounts: boolean;
}

export interface IdentityRow {
  identityId: string;
  displayName: string | null;
  userName: string | null;
  emailAddress: string | null;
  emailAddresses: string[];
  emailAddressVerified: boolean;
  givenName: string | null;
  givenNames: string[];
  surname: string | null;
  surnames: string[];
  locality: string | null;
  localities: string[];
  mobilePhone: string | null;
  mobilePhoneVerified: boolean;
  privatePersonalIdentifier: string | null;
  lastLogin: Date | null;
  smallPictures: string[];
  mediumPictures: string[];
  largePictures: string[];
  userNamePasswordAccountUserName: string | null;
  oldIdentityIds: string[];
  properties: Record<string, string>;
  disabled: boolean;
  isArchived: boolean;
}

export interface AccountRow {
  accountId: string;
  identityId: string;
  accountProviderId: string;
  issuedUserId: string;
  accountPrivatePersonalIdentifier: string | null;
  displayName: string | null;
  emailAddress: string | null;
  accountProfileUrl: string | null;
  pictureUrl: string | null;
}

export interface TokenRow {
  id: string;
  tokenHash: string;
  type: 'access' | 'app';
  identityId: string | null;
  accountId: string | null;
  appId: string | null;
  scopes: string[];
  expiresAt: Date | null;
}

export interface IssuerRow {
  issuer: string;
  position: number;
  jwksUri: string | null;
  audiences: string[];
  algorithms: string[];
  identityClaim: string;
  accountClaim: string | null;
  appIdClaims: string[];
  scopeClaim: string;
}

export interface TenantData {
  tenant: TenantRow;
  issuers: IssuerRow[];
  providers: ProviderRow[];
  identities: IdentityRow[];
  accounts: AccountRow[];
  /** Each friendship once per direction. */
  friendships: { identityId: string; friendId: string }[];
  roles: string[];
  roleAssignments: { identityId: string; roleName: string }[];
  tokens: TokenRow[];
}
