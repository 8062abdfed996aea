import { Injectable, Logger } from '@nestjs/common';
import {
  createRemoteJWKSet,
  customFetch,
  JWTPayload,
  jwtVerify,
  JWTVerifyOptions,
} from 'jose';
import { LRUCache } from 'lru-cache';
import {
  boundedCache,
  ENTRY_BYTES,
  keyedEntryBytes,
  stringBytes,
} from '../common/cache-budget';
import { IssuerUnavailable } from '../common/errors';
import { EgressPolicy } from '../common/validation/egress-policy';
import { AppConfig } from '../config/app-config';
import type { IssuerConfig } from './access.repository';
import { discoverJwksUri, fetchFromIssuer } from './issuer-documents';

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** How many issuers' keys and discovered addresses are kept. */
const MAX_ISSUERS = 1000;
/** The bytes of the discovered addresses and of the failures remembered (URLs). */
export const ADDRESSES_BYTES = 2 * 1024 * 1024;
/** What jose's key set weighs besides its JWKS: its object, closures, options and imported keys. */
const KEY_SET_BYTES = 12 * 1024;
/**
 * A key set's bytes in the cache: its key (the scope and the address), the
 * key set, and the JWKS it holds parsed, counted as three times the
 * document's bytes (its strings and the objects around them: 2.5 times,
 * measured).
 */
export const keySetBytes = (key: string, documentBytes = 0) =>
  ENTRY_BYTES + stringBytes(key) + KEY_SET_BYTES + 3 * documentBytes;
/**
 * How long a failed fetch is remembered at most: requests meanwhile get 503
 * at once instead of refetching. Never longer than JWKS_COOLDOWN_MS, the
 * least time between two fetches of an issuer's keys.
 */
const FAILURE_MEMORY_MS = 5000;

/**
 * jose's codes for a token that is wrong (401). Any other failure — a key set
 * that cannot be fetched, answers other than 200, is not JSON or is
 * malformed, a timeout — is the issuer's outage (503), not the caller's.
 */
const TOKEN_FAULTS = new Set([
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_EXPIRED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);

/** A token jose judged wrong (not an issuer's outage). */
export class TokenRejected extends Error {}

/**
 * The signing keys of token issuers, fetched from their JWKS (found through
 * OpenID Connect discovery when not configured). Every fetch is bounded (no
 * redirects, 1 MB, JWKS_TIMEOUT_MS), concurrent requests share one fetch per
 * address, a failure is remembered for a few seconds (503 meanwhile, no
 * refetch storm), and a discovered address is discovered again after its
 * key set fails. Caches are bounded; only configured issuers reach them.
 * Every fetch is made under the egress policy of the tenant that trusts the
 * issuer; the caches are kept apart by what the policy lets it reach, so
 * a listed tenant's keys never serve another tenant's same URL.
 */
@Injectable()
export class IssuerKeys {
  private readonly logger = new Logger('Jwt');
  private readonly keySets: LRUCache<string, KeySet>;
  private readonly discovered = boundedCache<string, string>({
    max: MAX_ISSUERS,
    maxBytes: ADDRESSES_BYTES,
    sizeOf: (uri, key) => keyedEntryBytes(uri, key) + stringBytes(uri),
  });
  private readonly discovering = new Map<string, Promise<string>>();
  private readonly failed: LRUCache<string, true>;
  private readonly egress: EgressPolicy;

  constructor(private readonly config: AppConfig) {
    this.egress = new EgressPolicy(config);
    // Within JWKS_CACHE_MB: a key set is weighed again once its JWKS is read.
    this.keySets = boundedCache<string, KeySet>({
      max: MAX_ISSUERS,
      maxBytes: config.jwksCacheBytes,
      sizeOf: (_keys, key) => keySetBytes(key),
    });
    this.failed = boundedCache<string, true>({
      max: MAX_ISSUERS,
      maxBytes: ADDRESSES_BYTES,
      sizeOf: keyedEntryBytes,
      // At least a millisecond: a time to live of 0 means forever.
      ttl: Math.max(1, Math.min(FAILURE_MEMORY_MS, config.jwksCooldownMs)),
    });
  }

  /** The bytes the cached key sets take, as keySetBytes counts them. */
  get keySetsBytes(): number {
    return this.keySets.calculatedSize;
  }

  /**
   * Verifies `token` with the keys of `tenantId`'s issuer; TokenRejected or
   * IssuerUnavailable otherwise.
   */
  async verify(
    tenantId: string,
    issuer: IssuerConfig,
    token: string,
    options: JWTVerifyOptions,
  ): Promise<JWTPayload> {
    const allowPrivate = this.egress.allowsPrivate(tenantId);
    const scope = allowPrivate ? 'private ' : 'public ';
    const uri =
      scope + (issuer.jwksUri ?? (await this.discover(issuer.issuer, scope)));
    if (this.failed.has(uri)) throw new IssuerUnavailable();
    try {
      return (
        await jwtVerify(token, this.keySet(uri, issuer, allowPrivate), options)
      ).payload;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && TOKEN_FAULTS.has(code))
        throw new TokenRejected(code);
      // Requests that waited on the same fetch fail with it: one warning.
      if (!this.failed.has(uri)) {
        this.failed.set(uri, true);
        this.keySets.delete(uri);
        if (!issuer.jwksUri) this.discovered.delete(scope + issuer.issuer);
        this.logger.warn(
          `Keys of issuer ${issuer.issuer} unavailable: ${(error as Error).message}`,
        );
      }
      throw new IssuerUnavailable();
    }
  }

  /** The key set at `key` (the egress scope, a space, the JWKS address). */
  private keySet(
    key: string,
    issuer: IssuerConfig,
    allowPrivate: boolean,
  ): KeySet {
    let keys = this.keySets.get(key);
    if (!keys) {
      const label = issuer.jwksUri ?? `the JWKS of ${issuer.issuer}`;
      keys = createRemoteJWKSet(new URL(key.slice(key.indexOf(' ') + 1)), {
        timeoutDuration: this.config.jwksTimeoutMs,
        cooldownDuration: this.config.jwksCooldownMs,
        cacheMaxAge: 10 * 60 * 1000,
        [customFetch]: (url, init) =>
          fetchFromIssuer(url, label, {
            ...init,
            allowPrivate,
            weigh: (bytes) => this.weigh(key, keys!, bytes),
          }),
      });
      this.keySets.set(key, keys);
    }
    return keys;
  }

  /**
   * Counts a key set's fetched JWKS in its cache's bytes (LRU entries go
   * first to make room; a key set no longer cached stays out of it).
   */
  private weigh(key: string, keys: KeySet, documentBytes: number) {
    if (this.keySets.peek(key) !== keys) return;
    // lru-cache weighs a value again only when it changes: set anew.
    this.keySets.delete(key);
    this.keySets.set(key, keys, { size: keySetBytes(key, documentBytes) });
  }

  /**
   * The issuer's JWKS address, discovered once for every concurrent request
   * of the same egress scope (`private ` or `public `).
   */
  private async discover(issuer: string, scope: string): Promise<string> {
    const key = scope + issuer;
    const known = this.discovered.get(key);
    if (known) return known;
    if (this.failed.has(key)) throw new IssuerUnavailable();
    let pending = this.discovering.get(key);
    if (!pending) {
      pending = discoverJwksUri(
        issuer,
        this.config.jwksTimeoutMs,
        scope === 'private ',
      ).finally(() => this.discovering.delete(key));
      this.discovering.set(key, pending);
    }
    try {
      const uri = await pending;
      this.discovered.set(key, uri);
      return uri;
    } catch (error) {
      if (!this.failed.has(key)) {
        this.failed.set(key, true);
        this.logger.warn(
          `Discovery failed for ${issuer}: ${(error as Error).message}`,
        );
      }
      throw new IssuerUnavailable();
    }
  }
}
