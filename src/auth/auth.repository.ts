import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import {
  IDENTITY_RECORD_COLUMNS,
  identityOf,
  IdentityRecord,
  Nullable,
} from '../identity/identity.record';
import type { IssuerRow } from '../tenants/tenant-data';

export interface TokenRecord {
  tenantId: string;
  type: 'access' | 'app';
  accountId: string | null;
  appId: string | null;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  isAdmin: boolean;
  /** The identity of an access token, read with it. */
  identity: IdentityRecord | null;
}

/** An authorization server whose JWTs a tenant accepts, as the verifier reads it. */
export type IssuerConfig = Omit<IssuerRow, 'position'>;

export interface IdentityCaller {
  isAdmin: boolean;
  /** The named account, when it belongs to the identity. */
  accountId: string | null;
  identity: IdentityRecord;
}

export interface AccessFacts {
  /** The identity, read whole so that GET `{id}` needs no second query. */
  identity: IdentityRecord | null;
  isFriend: boolean;
  /** The identity this id was merged into, when it no longer exists. */
  mergedInto: string | null;
}

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

@Injectable()
export class AuthRepository {
  constructor(private readonly database: Database) {}

  /**
   * The token with its identity (whole, so that the current identity needs
   * no second query) and the identity's admin status, in one query.
   */
  async findToken(tokenHash: string): Promise<TokenRecord | undefined> {
    const [row] = await this.database.prisma.$queryRaw<
      (Omit<TokenRecord, 'identity'> & Nullable<IdentityRecord>)[]
    >`
      SELECT t.tenant_id AS "tenantId", t.type::text AS "type",
             t.account_id AS "accountId", t.app_id AS "appId", t.scopes,
             t.expires_at AS "expiresAt", t.revoked_at AS "revokedAt",
             EXISTS (SELECT 1 FROM role_assignment ra JOIN tenant tn ON tn.id = ra.tenant_id
                      WHERE ra.tenant_id = t.tenant_id AND ra.identity_id = t.identity_id
                        AND ra.role_name = ANY (tn.admin_roles)) AS "isAdmin",
             ${IDENTITY_RECORD_COLUMNS}
        FROM token t
        LEFT JOIN identity i ON i.tenant_id = t.tenant_id AND i.identity_id = t.identity_id
       WHERE t.token_hash = ${tokenHash}`;
    if (!row) return undefined;
    const { tenantId, type, accountId, appId, scopes, expiresAt, revokedAt } =
      row;
    return {
      tenantId,
      type,
      accountId,
      appId,
      scopes,
      expiresAt,
      revokedAt,
      isAdmin: row.isAdmin,
      identity: identityOf(row),
    };
  }

  /** `targetId`'s identity, whether it counts `callerId` among its friends, and where it was merged. */
  async accessFacts(
    tenantId: string,
    targetId: string,
    callerId: string | null,
  ): Promise<AccessFacts> {
    // Merge redirects are looked up only for identities that do not exist.
    const [row] = await this.database.prisma.$queryRaw<
      (Omit<AccessFacts, 'identity'> & Nullable<IdentityRecord>)[]
    >`
      SELECT ${IDENTITY_RECORD_COLUMNS},
             EXISTS (SELECT 1 FROM friendship WHERE tenant_id = ${tenantId}
                        AND identity_id = ${targetId} AND friend_id = ${callerId}) AS "isFriend",
             CASE WHEN i.identity_id IS NOT NULL THEN NULL
                  ELSE (SELECT identity_id FROM identity WHERE tenant_id = ${tenantId}
                           AND old_identity_ids @> ARRAY[${targetId}]::text[] LIMIT 1)
             END AS "mergedInto"
        FROM (VALUES (1)) AS one
        LEFT JOIN identity i ON i.tenant_id = ${tenantId} AND i.identity_id = ${targetId}`;
    return {
      identity: identityOf(row),
      isFriend: row.isFriend,
      mergedInto: row.mergedInto,
    };
  }

  async createToken(token: NewToken): Promise<void> {
    await this.database.prisma.token.create({ data: token });
  }

  /** Marks a token revoked; false when no such token is live in the tenant. */
  async revokeToken(tenantId: string, tokenHash: string): Promise<boolean> {
    const { count } = await this.database.prisma.token.updateMany({
      where: { tenantId, tokenHash, revokedAt: null },
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

  /** The authorization servers whose JWTs the tenant accepts. */
  findIssuers(tenantId: string): Promise<IssuerConfig[]> {
    return this.database.prisma.tokenIssuer.findMany({
      where: { tenantId },
      orderBy: { position: 'asc' },
      omit: { tenantId: true, position: true },
    });
  }

  /** The identity a JWT names, with its admin status, in one query. */
  async findIdentityCaller(
    tenantId: string,
    identityId: string,
    accountId: string | null,
  ): Promise<IdentityCaller | undefined> {
    const [row] = await this.database.prisma.$queryRaw<
      (Omit<IdentityCaller, 'identity'> & IdentityRecord)[]
    >`
      SELECT EXISTS (SELECT 1 FROM role_assignment ra JOIN tenant tn ON tn.id = ra.tenant_id
                      WHERE ra.tenant_id = i.tenant_id AND ra.identity_id = i.identity_id
                        AND ra.role_name = ANY (tn.admin_roles)) AS "isAdmin",
             (SELECT a.account_id FROM account a
               WHERE a.tenant_id = i.tenant_id AND a.identity_id = i.identity_id
                 AND a.account_id = ${accountId}) AS "accountId",
             ${IDENTITY_RECORD_COLUMNS}
        FROM identity i
       WHERE i.tenant_id = ${tenantId} AND i.identity_id = ${identityId}`;
    return (
      row && {
        isAdmin: row.isAdmin,
        accountId: row.accountId,
        identity: identityOf(row)!,
      }
    );
  }
}
