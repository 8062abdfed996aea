import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Prisma } from '../generated/prisma/client';
import {
  IDENTITY_RECORD_COLUMNS,
  identityOf,
  Nullable,
} from '../identity/identity.repository';
import type { IdentityRecord } from '../identity/identity.record';
import type { IssuerRow } from './token-issuer';

/** A registered token with the caller it stands for, as one query reads them. */
export interface TokenCaller {
  tokenId: string;
  tenantId: string;
  type: 'access' | 'app';
  accountId: string | null;
  appId: string | null;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  isAdmin: boolean;
  /** The identity of an access token, read in the same query. */
  identity: IdentityRecord | null;
}

/** An authorization server whose JWTs a tenant accepts, as the verifier reads it. */
export type IssuerConfig = Omit<IssuerRow, 'position'>;

/** How an issuer's tokens name an identity. */
export type IssuerMatch = Pick<
  IssuerConfig,
  'identityMatch' | 'accountProvider'
>;
const IDENTITY_ID_MATCH: IssuerMatch = {
  identityMatch: 'identityId',
  accountProvider: null,
};

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
  mergedInto: { identityId: string; isFriend: boolean } | null;
}

/**
 * The reads every authenticated request makes: its caller (a registered
 * token, or the identity a JWT names) with the caller's identity, the
 * tenant's token issuers, and what the caller may see of an identity. Each
 * is one query, so that a request costs as few round trips as its work.
 */
@Injectable()
export class AccessRepository {
  constructor(private readonly database: Database) {}

  /**
   * The token with its identity (whole, so that the current identity needs
   * no second query) and the identity's admin status, in one query.
   */
  async findTokenCaller(tokenHash: string): Promise<TokenCaller | undefined> {
    const [row] = await this.database.query<
      Omit<TokenCaller, 'identity'> & Nullable<IdentityRecord>
    >(Prisma.sql`
      SELECT t.id::text AS "tokenId", t.tenant_id AS "tenantId", t.type::text AS "type",
             t.account_id AS "accountId", t.app_id AS "appId", t.scopes,
             t.expires_at AS "expiresAt", t.revoked_at AS "revokedAt",
             t.last_used_at AS "lastUsedAt",
             EXISTS (SELECT 1 FROM role_assignment ra JOIN tenant tn ON tn.id = ra.tenant_id
                      WHERE ra.tenant_id = t.tenant_id AND ra.identity_id = t.identity_id
                        AND ra.role_name = ANY (tn.admin_roles)) AS "isAdmin",
             ${IDENTITY_RECORD_COLUMNS}
        FROM token t
        LEFT JOIN identity i ON i.tenant_id = t.tenant_id AND i.identity_id = t.identity_id
       WHERE t.token_hash = ${tokenHash}`);
    if (!row) return undefined;
    const { tokenId, tenantId, type, accountId, appId, scopes } = row;
    return {
      tokenId,
      tenantId,
      type,
      accountId,
      appId,
      scopes,
      expiresAt: row.expiresAt,
      revokedAt: row.revokedAt,
      lastUsedAt: row.lastUsedAt,
      isAdmin: row.isAdmin,
      identity: identityOf(row),
    };
  }
  /**
   * Records that the token was accepted now, unless it was within the last
   * minute (another instance may have just done it). On the primary, but
   * outside the request's reads: it does not send them there.
   */
  async touchToken(tokenId: string): Promise<void> {
    await this.database.prisma.$executeRaw`
      UPDATE token SET last_used_at = now()
       WHERE id = ${tokenId}::uuid
         AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  }

  /**
   * `targetId`'s identity and whether it counts `callerId` among its friends;
   * when it no longer exists, the identity it was merged into and the same
   * fact about that one. One query either way: a stranger's 404 for a
   * merged-away id costs what one for a missing id does.
   */
  async accessFacts(
    tenantId: string,
    targetId: string,
    callerId: string | null,
  ): Promise<AccessFacts> {
    const [row] = await this.database.query<
      Omit<AccessFacts, 'identity' | 'mergedInto'> &
        Nullable<IdentityRecord> & {
          mergedInto: string | null;
          mergedIntoIsFriend: boolean;
        }
    >(Prisma.sql`
      SELECT ${IDENTITY_RECORD_COLUMNS},
             EXISTS (SELECT 1 FROM friendship WHERE tenant_id = ${tenantId}
                        AND identity_id = ${targetId} AND friend_id = ${callerId}) AS "isFriend",
             m.identity_id AS "mergedInto",
             EXISTS (SELECT 1 FROM friendship WHERE tenant_id = ${tenantId}
                        AND identity_id = m.identity_id AND friend_id = ${callerId}) AS "mergedIntoIsFriend"
        FROM (VALUES (1)) AS one
        LEFT JOIN identity i ON i.tenant_id = ${tenantId} AND i.identity_id = ${targetId}
        LEFT JOIN LATERAL (
          -- old_identity_ids <> '{}' is the predicate of its partial index.
          SELECT identity_id FROM identity
           WHERE i.identity_id IS NULL AND tenant_id = ${tenantId}
             AND old_identity_ids <> '{}' AND old_identity_ids @> ARRAY[${targetId}]::text[]
           LIMIT 1) AS m ON true`);
    return {
      identity: identityOf(row),
      isFriend: row.isFriend,
      mergedInto:
        row.mergedInto === null
          ? null
          : { identityId: row.mergedInto, isFriend: row.mergedIntoIsFriend },
    };
  }
  /** The authorization servers whose JWTs the tenant accepts; undefined for an unknown tenant. */
  async findIssuers(tenantId: string): Promise<IssuerConfig[] | undefined> {
    const tenant = await this.database.prisma.tenant.findUnique({
      where: { id: tenantId },
      select: {
        issuers: {
          orderBy: { position: 'asc' },
          omit: { tenantId: true, position: true },
        },
      },
    });
    // The migration's check constraint holds identity_match to IDENTITY_MATCHES.
    return tenant?.issuers as IssuerConfig[] | undefined;
  }

  /**
   * The identity a JWT names, with its admin status, in one query: the one
   * whose `match` key is `subject` (docs/api.md, identityMatch). A key
   * that two identities share (an externalId, a verified address) names
   * neither. With `account`, the
   * account whose issuedUserId is the subject at `accountProvider` is the
   * one signed in with; otherwise `accountId`, when it is the identity's.
   */
  async findIdentityCaller(
    tenantId: string,
    subject: string,
    accountId: string | null,
    match: IssuerMatch = IDENTITY_ID_MATCH,
  ): Promise<IdentityCaller | undefined> {
    const found = {
      identityId: Prisma.sql`i.identity_id = ${subject}`,
      externalId: Prisma.sql`i.external_id = ${subject}`,
      userName: Prisma.sql`lower(i.user_name) = lower(${subject})`,
      verifiedEmail: Prisma.sql`lower(i.email_address) = lower(${subject})
        AND i.email_address_verified`,
      account: Prisma.sql`i.identity_id = (
        SELECT a.identity_id FROM account a
         WHERE a.tenant_id = ${tenantId} AND a.account_provider_id = ${match.accountProvider}
           AND a.issued_user_id = ${subject})`,
    }[match.identityMatch];
    const account =
      match.identityMatch === 'account'
        ? Prisma.sql`a.account_provider_id = ${match.accountProvider} AND a.issued_user_id = ${subject}`
        : Prisma.sql`a.account_id = ${accountId}`;
    const rows = await this.database.query<
      Omit<IdentityCaller, 'identity'> & IdentityRecord
    >(Prisma.sql`
      SELECT EXISTS (SELECT 1 FROM role_assignment ra JOIN tenant tn ON tn.id = ra.tenant_id
                      WHERE ra.tenant_id = i.tenant_id AND ra.identity_id = i.identity_id
                        AND ra.role_name = ANY (tn.admin_roles)) AS "isAdmin",
             (SELECT a.account_id FROM account a
               WHERE a.tenant_id = i.tenant_id AND a.identity_id = i.identity_id
                 AND ${account}) AS "accountId",
             ${IDENTITY_RECORD_COLUMNS}
        FROM identity i
       WHERE i.tenant_id = ${tenantId} AND ${found}
       LIMIT 2`);
    const [row] = rows;
    return rows.length === 1
      ? {
          isAdmin: row.isAdmin,
          accountId: row.accountId,
          identity: identityOf(row)!,
        }
      : undefined;
  }
}
