import { Injectable, Logger } from '@nestjs/common';
import { decodeJwt, JWTPayload } from 'jose';
import {
  boundedCache,
  ENTRY_BYTES,
  keyedEntryBytes,
  stringBytes,
  valueBytes,
} from '../common/cache-budget';
import { AuthenticationRequired, Forbidden } from '../common/errors';
import { isStorableText, TENANT_ID } from '../common/validation/field-rules';
import { AccessRepository, IssuerConfig } from './access.repository';
import { IssuerKeys, TokenRejected } from './issuer-keys';
import { Principal, SCOPES } from '../identity/principal';
import { claimedId, signInTime } from './sign-in-claims';
import { SignInService } from './sign-in.service';

/** How long a tenant's issuer list is reused before it is read again. */
const ISSUERS_TTL_MS = 5000;
/** How many tenants' issuer lists are kept; only tenants that exist count. */
const MAX_TENANTS = 1000;
/** How many names that are no tenant are remembered as such (apart, so they evict no tenant). */
const MAX_ABSENT = 10_000;
/**
 * The bytes of the issuer lists kept (a tenant may have a hundred issuers
 * with their audiences and claims) and of the absent names
 * (docs/operations.md, Memory).
 */
export const ISSUERS_BYTES = 16 * 1024 * 1024;
export const ABSENT_BYTES = 4 * 1024 * 1024;
/** A tenant's issuer list as cached: measured once, when it is read. */
export const issuersEntryBytes = (list: IssuerConfig[], tenant: string) =>
  ENTRY_BYTES + stringBytes(tenant) + valueBytes(list);
/** Tolerated clock difference for exp, nbf and iat. */
const CLOCK_TOLERANCE_S = 30;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Validates JWTs from the tenant's own authorization servers as RFC 9068
 * asks of access tokens (signature by a key of the issuer's JWKS, `iss`,
 * `aud`, `exp` required, `nbf` and `iat` within the clock tolerance) and
 * maps them onto the same principals as opaque tokens. A path segment that
 * is not a tenant of this service is remembered as absent for as long as a
 * tenant's issuers are, in a bounded list of its own: a made-up tenant costs
 * what an existing one costs (one read per ISSUERS_TTL_MS), so the time of
 * an answer does not tell whether a tenant exists, and a flood of made-up
 * names evicts no real tenant.
 */
@Injectable()
export class JwtVerifier {
  private readonly logger = new Logger('Jwt');
  private readonly issuers = boundedCache<string, IssuerConfig[]>({
    max: MAX_TENANTS,
    maxBytes: ISSUERS_BYTES,
    sizeOf: issuersEntryBytes,
    ttl: ISSUERS_TTL_MS,
  });
  private readonly absent = boundedCache<string, true>({
    max: MAX_ABSENT,
    maxBytes: ABSENT_BYTES,
    sizeOf: keyedEntryBytes,
    ttl: ISSUERS_TTL_MS,
  });
  private readonly loading = new Map<
    string,
    Promise<IssuerConfig[] | undefined>
  >();

  constructor(
    private readonly auth: AccessRepository,
    private readonly keys: IssuerKeys,
    private readonly signIns: SignInService,
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

  /**
   * Reads the tenant's issuers again at its next token: this instance
   * follows its own change at once, the others within ISSUERS_TTL_MS.
   */
  forgetIssuers(tenant: string): void {
    this.issuers.delete(tenant);
  }

  /** How many tenants' issuer lists are cached (bounded; unknown tenants never are). */
  get cachedTenants(): number {
    return this.issuers.size;
  }

  async verify(
    tenant: string,
    token: string,
    issuerName: string,
  ): Promise<Principal> {
    const rejected = new AuthenticationRequired(true);
    if (!TENANT_ID.test(tenant)) throw rejected;
    const issuer = (await this.tenantIssuers(tenant))?.find(
      (i) => i.issuer === issuerName,
    );
    if (!issuer) throw rejected;
    let payload: JWTPayload;
    try {
      payload = await this.keys.verify(tenant, issuer, token, {
        issuer: issuer.issuer,
        audience: issuer.audiences,
        algorithms: issuer.algorithms,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      });
    } catch (error) {
      if (!(error instanceof TokenRejected)) throw error;
      this.logger.debug(`JWT rejected for tenant ${tenant}: ${error.message}`);
      throw rejected;
    }
    // jose checks that iat is a number, not that it has passed.
    if (
      typeof payload.iat === 'number' &&
      payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_S
    )
      throw rejected;
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
      .find((v) => typeof v === 'string' && v !== '' && isStorableText(v));
    const subject = payload[issuer.identityClaim];
    // An identity claim that is there names an identity, or the token is void.
    if (
      subject !== undefined &&
      (typeof subject !== 'string' ||
        subject === '' ||
        !isStorableText(subject))
    )
      throw rejected;
    // Client-credentials tokens name no user, or name the client itself.
    if (subject === undefined || subject === appId) {
      if (typeof appId !== 'string') throw rejected;
      return {
        kind: 'app',
        tenantId,
        appId,
        scopes: scopesOf(payload[issuer.scopeClaim] ?? payload.scp),
      };
    }
    // An address names an identity only as verified by the issuer.
    if (
      issuer.identityMatch === 'verifiedEmail' &&
      payload.email_verified !== true
    )
      throw rejected;
    const accountId =
      (issuer.accountClaim && claimedId(payload[issuer.accountClaim])) || null;
    const at = signInTime(payload, Date.now(), CLOCK_TOLERANCE_S * 1000);
    const caller =
      (await this.auth.findIdentityCaller(
        tenantId,
        subject,
        accountId,
        issuer,
      )) ??
      (await this.signIns.provision(
        tenantId,
        issuer,
        subject,
        payload,
        accountId,
        at,
      ));
    if (!caller) throw rejected;
    if (caller.identity.disabled)
      throw new Forbidden('The identity of this access token is disabled.');
    return {
      kind: 'access',
      tenantId,
      identityId: caller.identity.identityId,
      accountId: caller.accountId,
      isAdmin: caller.isAdmin,
      identity: await this.signIns.signedIn(tenantId, caller.identity, at),
    };
  }

  /**
   * The tenant's issuers, read at most once per ISSUERS_TTL_MS and once for
   * all concurrent requests; undefined when no such tenant exists, which is
   * remembered as long.
   */
  private async tenantIssuers(
    tenant: string,
  ): Promise<IssuerConfig[] | undefined> {
    const cached = this.issuers.get(tenant);
    if (cached) return cached;
    if (this.absent.get(tenant)) return undefined;
    let pending = this.loading.get(tenant);
    if (!pending) {
      pending = this.auth
        .findIssuers(tenant)
        .then((list) => {
          if (list) this.issuers.set(tenant, list);
          else this.absent.set(tenant, true);
          return list;
        })
        .finally(() => this.loading.delete(tenant));
      this.loading.set(tenant, pending);
    }
    return pending;
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
  return SCOPES.filter((scope) => scopes.includes(scope));
}
