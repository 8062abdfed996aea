import { Injectable } from '@nestjs/common';
import { SCOPES } from '../identity/principal';
import type { TokenFilter, TokenSummary } from '../auth/token.repository';
import { TokensService } from '../auth/tokens.service';
import { AppConfig } from '../config/app-config';
import {
  PreconditionFailed,
  TenantNotFound,
  TokenNotFound,
} from '../common/errors';
import { ifMatchAllows } from '../common/http/if-match';
import {
  Collection,
  instantKey,
  int8Key,
  Page,
  pageFrom,
  uuidKey,
} from '../common/pagination';
import {
  type AdminEventFilter,
  type AdminEventRecord,
  EventsRepository,
} from '../events/events.repository';
import { AdminRepository, type TenantSettings } from './admin.repository';
import { DEFAULT_LIMIT, invalid, tagOf } from './admin-rules';
import type {
  AdminEventResponse,
  CreatedTokenResponse,
  TenantSettingsPatch,
  TokenRequestBody,
  TokenResponse,
} from './admin.dto';

/** Tokens are listed by creation, then id; the audit log by its id. */
export const TOKENS_ORDER = ['createdAt', 'tokenId'] as const;
export const EVENTS_ORDER = ['id'] as const;

/** The most admin roles a tenant names. */
const MAX_ADMIN_ROLES = 100;

function tokenResponse(token: TokenSummary): TokenResponse {
  return {
    tokenId: token.id,
    type: token.type,
    ...(token.identityId !== null && { identityId: token.identityId }),
    ...(token.accountId !== null && { accountId: token.accountId }),
    ...(token.appId !== null && { appId: token.appId }),
    scopes: token.scopes,
    ...(token.expiresAt && { expiresAt: token.expiresAt.toISOString() }),
    createdAt: token.createdAt.toISOString(),
    ...(token.revokedAt && { revokedAt: token.revokedAt.toISOString() }),
    ...(token.lastUsedAt && { lastUsedAt: token.lastUsedAt.toISOString() }),
  };
}

function eventResponse(event: AdminEventRecord): AdminEventResponse {
  return {
    id: String(event.id),
    actor: event.actor,
    action: event.action,
    target: event.target,
    ...(event.before !== null && { before: event.before as object }),
    ...(event.after !== null && { after: event.after as object }),
    occurredAt: event.occurredAt.toISOString(),
  };
}

/** The tenant administration API (docs/api.md, administration). */
@Injectable()
export class AdminService {
  constructor(
    private readonly admin: AdminRepository,
    private readonly tokens: TokensService,
    private readonly events: EventsRepository,
    config: AppConfig,
  ) {
    this.maxTokens = config.quotas.tokens;
  }

  private readonly maxTokens: number;

  async settings(tenantId: string): Promise<TenantSettings> {
    const settings = await this.admin.findSettings(tenantId);
    // The guard let an app token of this tenant in: it existed a moment ago.
    if (!settings) throw new TenantNotFound();
    return settings;
  }

  /** Replaces the named settings; 412 when If-Match names other ones. */
  async updateSettings(
    tenantId: string,
    patch: TenantSettingsPatch,
    ifMatch: string | undefined,
    actor: string,
  ): Promise<TenantSettings> {
    const roles = patch.adminRoles;
    if (roles && roles.length > MAX_ADMIN_ROLES)
      throw invalid('adminRoles', `must have at most ${MAX_ADMIN_ROLES} items`);
    if (roles?.some((role) => role.length < 1 || role.length > 200))
      throw invalid('adminRoles', 'each item must be 1 to 200 characters');
    const changes = {
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.adminRoles !== undefined && {
        adminRoles: [...new Set(patch.adminRoles)],
      }),
      ...(patch.linkReturnUrls !== undefined && {
        linkReturnUrls: [...new Set(patch.linkReturnUrls)],
      }),
    };
    const result = await this.admin.updateSettings(
      tenantId,
      (current) => (ifMatchAllows(ifMatch, tagOf(current)) ? changes : 'stale'),
      actor,
    );
    if (result === 'stale')
      throw new PreconditionFailed('the current ETag of the settings');
    if (!result) throw new TenantNotFound();
    return result;
  }

  /** A page of the tenant's tokens, those of one identity or app when `filter` names one. */
  async listTokens(
    tenantId: string,
    filter: TokenFilter,
    page: Page,
  ): Promise<Collection<TokenResponse[]>> {
    const limit = page.limit ?? DEFAULT_LIMIT;
    const after = page.after && {
      createdAt: instantKey(page.after[0]),
      id: uuidKey(page.after[1]),
    };
    const rows = await this.tokens.findTokens(
      tenantId,
      filter,
      after,
      limit + 1,
    );
    return pageFrom(rows.map(tokenResponse), { limit }, (token) => [
      token.createdAt,
      token.tokenId,
    ]);
  }

  async token(tenantId: string, tokenId: string): Promise<TokenResponse> {
    const token = await this.tokens.findToken(tenantId, tokenId);
    if (!token) throw new TokenNotFound(tokenId);
    return tokenResponse(token);
  }

  async createToken(
    tenantId: string,
    body: TokenRequestBody,
    actor: string,
  ): Promise<CreatedTokenResponse> {
    const { identityId, accountId, appId: forApp, scopes, ttlSeconds } = body;
    if (scopes && scopes.length > SCOPES.length)
      throw invalid('scopes', `must have at most ${SCOPES.length} items`);
    const { secret, ...token } = await this.tokens.createToken(
      {
        tenantId,
        identityId,
        accountId,
        appId: forApp,
        scopes: scopes ?? [],
        ttlSeconds,
      },
      actor,
      this.maxTokens,
    );
    return Object.assign(tokenResponse(token), { secret });
  }

  /** Revokes a live token; 412 when If-Match names another state of it. */
  async revokeToken(
    tenantId: string,
    tokenId: string,
    ifMatch: string | undefined,
    actor: string,
  ): Promise<void> {
    const current = await this.token(tenantId, tokenId);
    if (current.revokedAt !== undefined) throw new TokenNotFound(tokenId, true);
    if (!ifMatchAllows(ifMatch, tagOf(current)))
      throw new PreconditionFailed('the current ETag of the token');
    if (!(await this.tokens.revokeToken(tenantId, tokenId, actor)))
      throw new TokenNotFound(tokenId, true);
  }

  /** A page of the audit log, of one action or actor when `filter` names one. */
  async listEvents(
    tenantId: string,
    filter: AdminEventFilter,
    page: Page,
  ): Promise<Collection<AdminEventResponse[]>> {
    const limit = page.limit ?? DEFAULT_LIMIT;
    const after = page.after ? int8Key(page.after[0]) : 0n;
    const rows = await this.events.findAdminEvents(
      tenantId,
      filter,
      after,
      limit + 1,
    );
    return pageFrom(rows.map(eventResponse), { limit }, (event) => [event.id]);
  }
}
