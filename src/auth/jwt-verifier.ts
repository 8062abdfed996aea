import { Injectable, Logger } from '@nestjs/common';
import { createRemoteJWKSet, decodeJwt, JWTPayload, jwtVerify } from 'jose';
import {
  AuthenticationRequired,
  Forbidden,
  IssuerUnavailable,
} from '../common/errors';
import { AppConfig } from '../config/app-config';
import { AuthRepository, IssuerConfig } from './auth.repository';
import { Principal, SCOPE_DELETE, SCOPE_READ } from './principal';

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** How long a tenant's issuer list is reused before it is read again. */
const ISSUERS_TTL_MS = 5000;
/** Tolerated clock difference for exp and nbf. */
const CLOCK_TOLERANCE_S = 30;
const KNOWN_SCOPES = [SCOPE_READ, SCOPE_DELETE];
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Validates JWTs from the tenant's own authorization servers (issuer,
 * audience, signature by a key from the issuer's JWKS, exp/nbf) and maps
 * them onto the same principals as opaque tokens.
 */
@Injectable()
export class JwtVerifier {
  private readonly logger = new Logger('Jwt');
  private readonly keySets = new Map<string, KeySet>();
  private readonly jwksUris = new Map<string, string>();
  private readonly issuers = new Map<
    string,
    { at: number; list: Promise<IssuerConfig[]> }
  >();

  constructor(
    private readonly auth: AuthRepository,
    private readonly config: AppConfig,
  ) {}

  /** The payload's issuer, when `token` is a JWT at all; opaque tokens are not. */
  static issuerOf(token: string): string | undefined {
    if (!JWT.test(token)) return undefined;
    try {
      const { iss } = decodeJwt(token);
      return typeof iss === 'string' ? iss : undefined;
    } catch {
      return undefined;
    }
  }

  async verify(
    tenant: string,
    token: string,
    issuerName: string,
    realm: string,
  ): Promise<Principal> {
    const rejected = new AuthenticationRequired(realm, true);
    const issuer = (await this.tenantIssuers(tenant)).find(
      (i) => i.issuer === issuerName,
    );
    if (!issuer) throw rejected;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.keySet(issuer), {
        issuer: issuer.issuer,
        audience: issuer.audiences,
        algorithms: issuer.algorithms,
        clockTolerance: CLOCK_TOLERANCE_S,
      }));
    } catch (error) {
      // jose's own errors (ERR_…) judge the token; anything else, like a
      // failed fetch of the keys, is the issuer's outage, not the caller's.
      const code = (error as { code?: unknown }).code;
      const judged =
        typeof code === 'string' &&
        code.startsWith('ERR_') &&
        code !== 'ERR_JWKS_TIMEOUT';
      if (!judged) throw new IssuerUnavailable();
      this.logger.debug(
        `JWT rejected for tenant ${tenant}: ${code ?? (error as Error).message}`,
      );
      throw rejected;
    }
    return this.principal(tenant, issuer, payload, rejected);
  }

  private async principal(
    tenantId: string,
    issuer: IssuerConfig,
    payload: JWTPayload,
    rejected: Error,
  ): Promise<Principal> {
    const appId = issuer.appIdClaims
      .map((claim) => payload[claim])
      .find((v) => typeof v === 'string');
    const subject = payload[issuer.identityClaim];
    // Client-credentials tokens name no user, or name the client itself.
    if (typeof subject === 'string' && subject.includes('\u0000'))
      throw rejected;
    if (typeof subject !== 'string' || subject === appId) {
      if (typeof appId !== 'string') throw rejected;
      return {
        kind: 'app',
        tenantId,
        appId,
        scopes: scopesOf(payload[issuer.scopeClaim] ?? payload.scp),
      };
    }
    const accountClaim = issuer.accountClaim
      ? payload[issuer.accountClaim]
      : undefined;
    const caller = await this.auth.findIdentityCaller(
      tenantId,
      subject,
      typeof accountClaim === 'string' && !accountClaim.includes('\u0000')
        ? accountClaim
        : null,
    );
    if (!caller) throw rejected;
    if (caller.identity.disabled)
      throw new Forbidden('The identity of this access token is disabled.');
    return {
      kind: 'access',
      tenantId,
      identityId: subject,
      accountId: caller.accountId,
      isAdmin: caller.isAdmin,
      identity: caller.identity,
    };
  }

  private tenantIssuers(tenant: string): Promise<IssuerConfig[]> {
    const cached = this.issuers.get(tenant);
    if (cached && Date.now() - cached.at < ISSUERS_TTL_MS) return cached.list;
    const list = this.auth.findIssuers(tenant);
    this.issuers.set(tenant, { at: Date.now(), list });
    list.catch(() => this.issuers.delete(tenant));
    return list;
  }

  private async keySet(issuer: IssuerConfig): Promise<KeySet> {
    const uri = issuer.jwksUri ?? (await this.discover(issuer.issuer));
    let keys = this.keySets.get(uri);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(uri), {
        timeoutDuration: this.config.jwksTimeoutMs,
        cooldownDuration: this.config.jwksCooldownMs,
        cacheMaxAge: 10 * 60 * 1000,
      });
      this.keySets.set(uri, keys);
    }
    return keys;
  }

  /** The JWKS address from the issuer's OpenID Connect discovery document. */
  private async discover(issuer: string): Promise<string> {
    const known = this.jwksUris.get(issuer);
    if (known) return known;
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    try {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(this.config.jwksTimeoutMs),
      });
      const { jwks_uri: jwksUri } = (await res.json()) as {
        jwks_uri?: unknown;
      };
      if (!res.ok || typeof jwksUri !== 'string')
        throw new Error(`no jwks_uri at ${url}`);
      this.jwksUris.set(issuer, jwksUri);
      return jwksUri;
    } catch (error) {
      this.logger.warn(
        `Discovery failed for ${issuer}: ${(error as Error).message}`,
      );
      throw new IssuerUnavailable();
    }
  }
}

/** The scope claim as a space-separated string or a list (`scp`); unknown scopes dropped. */
function scopesOf(claim: unknown): string[] {
  const scopes =
    typeof claim === 'string'
      ? claim.split(' ')
      : Array.isArray(claim)
        ? claim
        : [];
  return KNOWN_SCOPES.filter((scope) => scopes.includes(scope));
}
