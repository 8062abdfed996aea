// A tenant as the importer writes it and the exporter reads it: plain rows,
// already validated and normalized.

import type { IdentityFieldValues } from '../identity/identity-fields';

export interface TenantRow {
  id: string;
  name: string;
  adminRoles: string[];
  /** Where a browser may be sent after linking an account; the first is the default. */
  linkReturnUrls: string[];
}

/** A provider's link settings, as the tenant file and the admin API give them (tenant-file.dto.ts, LinkSettings). */
export interface LinkRow {
  type: 'oidc' | 'oauth2';
  issuer?: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userInfoEndpoint?: string;
  clientId: string;
  clientSecretEnv?: string;
  scopes?: string[];
  claims?: {
    issuedUserId?: string;
    displayName?: string;
    emailAddress?: string;
    pictureUrl?: string;
    accountProfileUrl?: string;
  };
}

export interface ProviderRow {
  accountProviderId: string;
  position: number;
  displayName: string | null;
  providerImageUrl: string | null;
  signInUrl: string;
  allowsMultipleAccounts: boolean;
  link: LinkRow | null;
}

/** An identity's fields as the importer writes them (identity-fields.ts). */
export type IdentityRow = IdentityFieldValues;

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

/**
 * Which key of an identity a token issuer's identity claim carries: its
 * identityId, the externalId a directory gave it, its userName (in any
 * case), the issuedUserId of its account at the issuer's provider, or its
 * e-mail address when both the token and the identity hold it verified.
 */
export const IDENTITY_MATCHES = [
  'identityId',
  'externalId',
  'userName',
  'account',
  'verifiedEmail',
] as const;
export type IdentityMatch = (typeof IDENTITY_MATCHES)[number];

export interface IssuerRow {
  issuer: string;
  position: number;
  jwksUri: string | null;
  audiences: string[];
  algorithms: string[];
  identityClaim: string;
  /** Which key of an identity the identity claim carries. */
  identityMatch: IdentityMatch;
  accountClaim: string | null;
  appIdClaims: string[];
  scopeClaim: string;
  /** `jit` when the issuer's tokens create the identities they name. */
  provisioning: string | null;
  /** The provider at which a just-in-time identity gets its account. */
  accountProvider: string | null;
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
