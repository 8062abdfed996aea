import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InvalidRequest } from '../common/errors';
import { SCOPES } from '../identity/principal';
import { TokenFilter, TokenRepository, TokenSummary } from './token.repository';
import { generateTokenSecret, hashTokenSecret } from './token-secret';

export interface TokenRequest {
  tenantId: string;
  identityId?: string;
  accountId?: string;
  appId?: string;
  scopes: string[];
  ttlSeconds?: number;
}

/** A token's id: a UUID (never the shape of a secret, which is longer). */
const TOKEN_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Registered tokens: created, listed and revoked from the command line. */
@Injectable()
export class TokensService {
  constructor(private readonly tokens: TokenRepository) {}

  /**
   * Registers a new token for `actor` (`cli`, or `app:<id>` through the
   * admin API) and returns it with its secret, which is not stored; with
   * `maxLive` (the admin API's quota), a 400 when the tenant has that many
   * live tokens already.
   */
  async createToken(
    request: TokenRequest,
    actor = 'cli',
    maxLive?: number,
  ): Promise<TokenSummary & { secret: string }> {
    const { tenantId, identityId, accountId, appId, scopes, ttlSeconds } =
      request;
    if (!(await this.tokens.tenantExists(tenantId)))
      throw new InvalidRequest(`Unknown tenant "${tenantId}".`);
    if ((identityId === undefined) === (appId === undefined))
      throw new InvalidRequest(
        'Name either an identity (access token) or an app (app token).',
      );
    if (
      identityId !== undefined &&
      !(await this.tokens.identityExists(tenantId, identityId))
    )
      throw new InvalidRequest(
        `Unknown identity "${identityId}" in tenant "${tenantId}".`,
      );
    if (accountId !== undefined) {
      if (identityId === undefined)
        throw new InvalidRequest('An account goes with an identity only.');
      if ((await this.tokens.accountOwner(tenantId, accountId)) !== identityId)
        throw new InvalidRequest(
          `"${accountId}" is not an account of identity "${identityId}".`,
        );
    }
    const unknown = scopes.filter(
      (s) => !(SCOPES as readonly string[]).includes(s),
    );
    if (unknown.length)
      throw new InvalidRequest(
        `Unknown scope ${unknown.join(', ')}; known: ${SCOPES.join(', ')}.`,
      );
    const secret = generateTokenSecret();
    const created = await this.tokens.createToken(
      {
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
      },
      actor,
      maxLive,
    );
    if (created === 'full') {
      const field = identityId !== undefined ? 'identityId' : 'appId';
      const message = `is one more than the ${maxLive} live tokens a tenant may have`;
      throw new InvalidRequest(`${field} ${message}`, [{ field, message }]);
    }
    return { ...created, secret };
  }

  /**
   * Revokes a token named by its id (as `token list` shows it) or by its
   * secret (a secret may have an id's shape: then both are tried).
   */
  async revokeToken(
    tenantId: string,
    idOrSecret: string,
    actor = 'cli',
  ): Promise<boolean> {
    return (
      (TOKEN_ID.test(idOrSecret) &&
        (await this.tokens.revokeToken(
          tenantId,
          { id: idOrSecret.toLowerCase() },
          actor,
        ))) ||
      this.tokens.revokeToken(
        tenantId,
        { tokenHash: hashTokenSecret(idOrSecret) },
        actor,
      )
    );
  }

  /** A token of the tenant named by its id, or null. */
  findToken(tenantId: string, id: string): Promise<TokenSummary | null> {
    return TOKEN_ID.test(id)
      ? this.tokens.findToken(tenantId, id.toLowerCase())
      : Promise.resolve(null);
  }

  /** A page of the tenant's tokens that `filter` keeps, by creation, then id. */
  findTokens(
    tenantId: string,
    filter: TokenFilter,
    after: { createdAt: Date; id: string } | undefined,
    limit: number,
  ): Promise<TokenSummary[]> {
    return this.tokens.findTokens(tenantId, filter, after, limit);
  }

  listTokens(tenantId: string): Promise<TokenSummary[]> {
    return this.tokens.listTokens(tenantId);
  }
}
