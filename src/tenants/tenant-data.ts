// A tenant as the importer writes it and the exporter reads it: plain rows,
// already validated and normalized.

import type { IssuerRow } from '../auth/token-issuer';
import type { NewToken } from '../auth/token.repository';
import type { IdentityFieldValues } from '../identity/identity-fields';

// A token issuer's settings are auth's, which verifies its tokens.
export {
  IDENTITY_MATCHES,
  type IdentityMatch,
  type IssuerRow,
} from '../auth/token-issuer';

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
  /** When the link's client secret was set; null when it has none. */
  clientSecretSetAt: Date | null;
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

/** A token as the importer writes it: a new token, in the tenant being imported. */
export type TokenRow = Omit<NewToken, 'tenantId'>;

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
  /**
   * The client secrets the file gives, by provider id (null: none); a
   * provider it gives none for keeps the one it has (client-secrets.ts).
   */
  clientSecrets: Record<string, string | null>;
}
