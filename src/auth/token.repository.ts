import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface NewToken {
  id: string;
  tenantId: string;
  tokenHash: string;
  type: 'access' | 'app';
  identityId: string | null;
  accountId: string | null;
  appId: string | null;
  scopes: string[];
  expiresAt: Date | null;
}

export interface TokenSummary {
  id: string;
  type: 'access' | 'app';
  identityId: string | null;
  accountId: string | null;
  appId: string | null;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/** Registered tokens, as the command line manages them. */
@Injectable()
export class TokenRepository {
  constructor(private readonly database: Database) {}

  async createToken(token: NewToken): Promise<void> {
    await this.database.prisma.token.create({ data: token });
  }
  /**
   * Marks a token revoked, named by the hash of its secret or by its id;
   * false when no such token is live in the tenant.
   */
  async revokeToken(
    tenantId: string,
    which: { tokenHash: string } | { id: string },
  ): Promise<boolean> {
    const { count } = await this.database.prisma.token.updateMany({
      where: { tenantId, ...which, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return count > 0;
  }
  listTokens(tenantId: string): Promise<TokenSummary[]> {
    return this.database.prisma.token.findMany({
      where: { tenantId },
      orderBy: { createdAt: 'asc' },
      select: {
        id: true,
        type: true,
        identityId: true,
        accountId: true,
        appId: true,
        scopes: true,
        expiresAt: true,
        revokedAt: true,
        createdAt: true,
      },
    });
  }
  async identityExists(tenantId: string, identityId: string): Promise<boolean> {
    return (
      (await this.database.prisma.identity.count({
        where: { tenantId, identityId },
      })) > 0
    );
  }
  async accountOwner(
    tenantId: string,
    accountId: string,
  ): Promise<string | undefined> {
    const account = await this.database.prisma.account.findUnique({
      where: { tenantId_accountId: { tenantId, accountId } },
      select: { identityId: true },
    });
    return account?.identityId;
  }
  async tenantExists(tenantId: string): Promise<boolean> {
    return (
      (await this.database.prisma.tenant.count({ where: { id: tenantId } })) > 0
    );
  }
}
