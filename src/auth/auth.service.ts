import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  AuthenticationRequired,
  Forbidden,
  InvalidRequest,
} from '../common/errors';
import { TENANT_ID } from '../common/validation/field-rules';
import { AuthRepository, TokenSummary } from './auth.repository';
import { JwtVerifier } from './jwt-verifier';
import { Principal, SCOPE_DELETE, SCOPE_READ } from './principal';
import { generateTokenSecret, hashTokenSecret } from './token-secret';

export const SCOPES = [SCOPE_READ, SCOPE_DELETE];

/** The realm named in WWW-Authenticate: the path's tenant when it can be one. */
export function realmOf(tenant: unknown): string {
  return typeof tenant === 'string' && TENANT_ID.test(tenant)
    ? tenant
    : 'identity';
}

export interface TokenRequest {
  tenantId: string;
  identityId?: string;
  accountId?: string;
  appId?: string;
  scopes: string[];
  ttlSeconds?: number;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly auth: AuthRepository,
    private readonly jwt: JwtVerifier,
  ) {}

  /**
   * Resolves a bearer token sent to `tenant`'s paths: a JWT of one of the
   * tenant's issuers, or an opaque token registered in the database. Anything but a live
   * token of that tenant is a 401; a disabled identity's token is a 403.
   */
  async authenticate(tenant: string, secret: string): Promise<Principal> {
    const issuer = JwtVerifier.issuerOf(secret);
    if (issuer !== undefined)
      return this.jwt.verify(tenant, secret, issuer, realmOf(tenant));
    const token = await this.auth.findToken(hashTokenSecret(secret));
    const now = Date.now();
    if (
      !token ||
      token.tenantId !== tenant ||
      token.revokedAt !== null ||
      (token.expiresAt !== null && token.expiresAt.getTime() <= now)
    )
      throw new AuthenticationRequired(realmOf(tenant), true);
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

  /** Registers a new token and returns its secret, which is not stored. */
  async createToken(request: TokenRequest): Promise<string> {
    const { tenantId, identityId, accountId, appId, scopes, ttlSeconds } =
      request;
    if (!(await this.auth.tenantExists(tenantId)))
      throw new InvalidRequest(`Unknown tenant "${tenantId}".`);
    if ((identityId === undefined) === (appId === undefined))
      throw new InvalidRequest(
        'Name either an identity (access token) or an app (app token).',
      );
    if (
      identityId !== undefined &&
      !(await this.auth.identityExists(tenantId, identityId))
    )
      throw new InvalidRequest(
        `Unknown identity "${identityId}" in tenant "${tenantId}".`,
      );
    if (accountId !== undefined) {
      if (identityId === undefined)
        throw new InvalidRequest('An account goes with an identity only.');
      if ((await this.auth.accountOwner(tenantId, accountId)) !== identityId)
        throw new InvalidRequest(
          `"${accountId}" is not an account of identity "${identityId}".`,
        );
    }
    const unknown = scopes.filter((s) => !SCOPES.includes(s));
    if (unknown.length)
      throw new InvalidRequest(
        `Unknown scope ${unknown.join(', ')}; known: ${SCOPES.join(', ')}.`,
      );
    const secret = generateTokenSecret();
    await this.auth.createToken({
      id: randomUUID(),
      tenantId,
      tokenHash: hashTokenSecret(secret),
      type: identityId !== undefined ? 'access' : 'app',
      identityId: identityId ?? null,
      accountId: accountId ?? null,
      appId: appId ?? null,
      scopes: [...new Set(scopes)],
      expiresAt:
        ttlSeconds === undefined
          ? null
          : new Date(Date.now() + ttlSeconds * 1000),
    });
    return secret;
  }

  revokeToken(tenantId: string, secret: string): Promise<boolean> {
    return this.auth.revokeToken(tenantId, hashTokenSecret(secret));
  }

  listTokens(tenantId: string): Promise<TokenSummary[]> {
    return this.auth.listTokens(tenantId);
  }
}
