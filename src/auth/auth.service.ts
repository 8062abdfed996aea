import { Injectable, Logger } from '@nestjs/common';
import { boundedCache, keyedEntryBytes } from '../common/cache-budget';
import {
  AuthenticationRequired,
  Forbidden,
  OtherTenantAdminToken,
} from '../common/errors';
import { AccessRepository } from './access.repository';
import { JwtVerifier } from './jwt-verifier';
import { Principal } from '../identity/principal';
import { hashTokenSecret } from './token-secret';

/** A token's last use is written at most this often (docs/api.md, administration). */
export const LAST_USED_PRECISION_MS = 60_000;
/** The bytes of the tokens whose last use was written (10,000 ids of 36 characters). */
export const TOUCHED_BYTES = 3 * 1024 * 1024;

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');
  /** Tokens whose last use this instance wrote within the precision. */
  private readonly touched = boundedCache<string, true>({
    max: 10_000,
    maxBytes: TOUCHED_BYTES,
    sizeOf: keyedEntryBytes,
    ttl: LAST_USED_PRECISION_MS,
  });

  constructor(
    private readonly access: AccessRepository,
    private readonly jwt: JwtVerifier,
  ) {}

  /**
   * Resolves a bearer token sent to `tenant`'s paths: a JWT of one of the
   * tenant's issuers, or an opaque token registered in the database. Anything but a live
   * token of that tenant is a 401; a disabled identity's token is a 403.
   * A request's use is recorded (`lastUsedAt`); a check that is no use of
   * the token (`recordUse` false: which demo tokens still work) is not.
   */
  async authenticate(
    tenant: string,
    secret: string,
    recordUse = true,
  ): Promise<Principal> {
    const issuer = JwtVerifier.issuerOf(secret);
    if (issuer !== undefined) return this.jwt.verify(tenant, secret, issuer);
    const token = await this.access.findTokenCaller(hashTokenSecret(secret));
    const now = Date.now();
    if (
      !token ||
      token.revokedAt !== null ||
      (token.expiresAt !== null && token.expiresAt.getTime() <= now)
    )
      throw new AuthenticationRequired(true);
    if (token.tenantId !== tenant)
      throw token.type === 'app' && token.scopes.includes('tenant:admin')
        ? new OtherTenantAdminToken()
        : new AuthenticationRequired(true);
    if (
      recordUse &&
      (token.lastUsedAt === null ||
        now - token.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) &&
      !this.touched.has(token.tokenId)
    )
      await this.touch(token.tokenId);
    if (token.type === 'app')
      return {
        kind: 'app',
        tenantId: token.tenantId,
        appId: token.appId!,
        scopes: token.scopes,
      };
    // An access token's identity always exists: its tokens go with it.
    const identity = token.identity!;
    if (identity.disabled)
      throw new Forbidden('The identity of this access token is disabled.');
    return {
      kind: 'access',
      tenantId: token.tenantId,
      identityId: identity.identityId,
      accountId: token.accountId,
      isAdmin: token.isAdmin,
      identity,
    };
  }

  /** Writes the token's last use; a failure costs the request nothing. */
  private async touch(tokenId: string): Promise<void> {
    this.touched.set(tokenId, true);
    try {
      await this.access.touchToken(tokenId);
    } catch (error) {
      this.logger.warn(
        `Could not record a token's last use: ${(error as Error).message}`,
      );
    }
  }
}
