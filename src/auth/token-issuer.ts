// A token issuer of a tenant as it is stored: whose JWTs the tenant
// accepts, and how a token's claims name an identity. The import file,
// the administration API and the JWT verifier share it.

import type { Selectable } from 'kysely';
import type { TokenIssuer } from '../generated/kysely/tables';

/**
 * Which key of an identity a token issuer's identity claim carries: its
 * identityId, the externalId a directory gave it, its userName, the
 * issuedUserId of its account at the issuer's provider, or its e-mail
 * address when both the token and the identity hold it verified. A userName
 * and an address match in their canonical form, ascii_lower() (migration
 * 20261208000000_canonical_match): A-Z as a-z, every other character as
 * written, so no other letter can stand for an ASCII one.
 */
export const IDENTITY_MATCHES = [
  'identityId',
  'externalId',
  'userName',
  'account',
  'verifiedEmail',
] as const;
export type IdentityMatch = (typeof IDENTITY_MATCHES)[number];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The schema types the column with these (prisma/schema.prisma).
true satisfies Same<Selectable<TokenIssuer>['identity_match'], IdentityMatch>;

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
