import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { Transaction } from '../database/database';
import { lockTenantSettings } from '../database/tenant-lock';
import { appendAdminEvent } from '../events/events.repository';

/** What a token grants: to which identity or app, with which scopes, until when. */
export interface TokenGrant {
  type: 'access' | 'app';
  identityId: string | null;
  accountId: string | null;
  appId: string | null;
  scopes: string[];
  expiresAt: Date | null;
}

export interface NewToken extends TokenGrant {
  id: string;
  tenantId: string;
  tokenHash: string;
}

export interface TokenSummary extends TokenGrant {
  id: string;
  revokedAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const SUMMARY = {
  id: true,
  type: true,
  identityId: true,
  accountId: true,
  appId: true,
  scopes: true,
  expiresAt: true,
  revokedAt: true,
  createdAt: true,
  lastUsedAt: true,
} as const;

/** A token as the audit log describes it: never its secret or hash. */
function describe(token: TokenGrant): object {
  return {
    type: token.type,
    identityId: token.identityId,
    accountId: token.accountId,
    appId: token.appId,
    scopes: token.scopes,
    expiresAt: token.expiresAt?.toISOString() ?? null,
  };
}

/** The tenant's tokens neither revoked nor expired. */
const liveTokens = (tx: Transaction, tenantId: string) =>
  tx.models.token.count({
    where: {
      tenantId,
      revokedAt: null,
      OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
    },
  });

/** Which tokens a list holds: those of one identity, or of one app. */
export interface TokenFilter {
  identityId?: string;
  appId?: string;
}

/** Registered tokens, as the command line and the admin API manage them. */
@Injectable()
export class TokenRepository {
  constructor(private readonly database: Database) {}

  /**
   * Registers a token, with its entry in the audit log by `actor`, in one
   * transaction. With `maxLive`, 'full' when the tenant has that many live
   * tokens already: counted behind the tenant's settings lock, so that
   * concurrent requests cannot each count the others out.
   */
  async createToken(
    token: NewToken,
    actor: string,
    maxLive?: number,
  ): Promise<TokenSummary | 'full'> {
    return this.database.transaction(async (tx) => {
      if (maxLive !== undefined) {
        await lockTenantSettings(tx, token.tenantId);
        if ((await liveTokens(tx, token.tenantId)) >= maxLive) return 'full';
      }
      const created = await tx.models.token.create({
        data: token,
        select: SUMMARY,
      });
      await appendAdminEvent(tx, token.tenantId, {
        actor,
        action: 'token.created',
        target: `token:${token.id}`,
        after: describe(created),
      });
      return created;
    });
  }

  /**
   * Marks a token revoked, named by the hash of its secret or by its id,
   * with its entry in the audit log by `actor`; false when no such token is
   * live in the tenant.
   */
  async revokeToken(
    tenantId: string,
    which: { tokenHash: string } | { id: string },
    actor: string,
  ): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      const live = await tx.models.token.findFirst({
        where: { tenantId, ...which, revokedAt: null },
        select: { id: true },
      });
      if (!live) return false;
      const { count } = await tx.models.token.updateMany({
        where: { id: live.id, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (count)
        await appendAdminEvent(tx, tenantId, {
          actor,
          action: 'token.revoked',
          target: `token:${live.id}`,
        });
      return count > 0;
    });
  }

  /** One token of the tenant, live or not. */
  findToken(tenantId: string, id: string): Promise<TokenSummary | null> {
    return this.database.models.token.findFirst({
      where: { tenantId, id },
      select: SUMMARY,
    });
  }

  /** A page of the tenant's tokens that `filter` keeps, by creation, then id, after `after`. */
  findTokens(
    tenantId: string,
    filter: TokenFilter,
    after: { createdAt: Date; id: string } | undefined,
    limit: number,
  ): Promise<TokenSummary[]> {
    return this.database.models.token.findMany({
      where: {
        tenantId,
        ...(filter.identityId !== undefined && {
          identityId: filter.identityId,
        }),
        ...(filter.appId !== undefined && { appId: filter.appId }),
        ...(after && {
          OR: [
            { createdAt: { gt: after.createdAt } },
            { createdAt: after.createdAt, id: { gt: after.id } },
          ],
        }),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit,
      select: SUMMARY,
    });
  }
  listTokens(tenantId: string): Promise<TokenSummary[]> {
    return this.database.models.token.findMany({
      where: { tenantId },
      orderBy: { createdAt: 'asc' },
      select: SUMMARY,
    });
  }
  async identityExists(tenantId: string, identityId: string): Promise<boolean> {
    return (
      (await this.database.models.identity.count({
        where: { tenantId, identityId },
      })) > 0
    );
  }
  async accountOwner(
    tenantId: string,
    accountId: string,
  ): Promise<string | undefined> {
    const account = await this.database.models.account.findUnique({
      where: { tenantId_accountId: { tenantId, accountId } },
      select: { identityId: true },
    });
    return account?.identityId;
  }
  async tenantExists(tenantId: string): Promise<boolean> {
    return (
      (await this.database.models.tenant.count({ where: { id: tenantId } })) > 0
    );
  }
}
