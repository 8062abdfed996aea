import { Injectable } from '@nestjs/common';
import { AuthenticationRequired, Forbidden } from '../common/errors';
import { AccessRepository } from './access.repository';
import { JwtVerifier } from './jwt-verifier';
import { Principal } from './principal';
import { hashTokenSecret } from './token-secret';

@Injectable()
export class AuthService {
  constructor(
    private readonly access: AccessRepository,
    private readonly jwt: JwtVerifier,
  ) {}

  /**
   * Resolves a bearer token sent to `tenant`'s paths: a JWT of one of the
   * tenant's issuers, or an opaque token registered in the database. Anything but a live
   * token of that tenant is a 401; a disabled identity's token is a 403.
   */
  async authenticate(tenant: string, secret: string): Promise<Principal> {
    const issuer = JwtVerifier.issuerOf(secret);
    if (issuer !== undefined) return this.jwt.verify(tenant, secret, issuer);
    const token = await this.access.findTokenCaller(hashTokenSecret(secret));
    const now = Date.now();
    if (
      !token ||
      token.tenantId !== tenant ||
      token.revokedAt !== null ||
      (token.expiresAt !== null && token.expiresAt.getTime() <= now)
    )
      throw new AuthenticationRequired(true);
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
}
