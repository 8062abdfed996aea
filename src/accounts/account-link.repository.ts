import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { errorCodes } from '../database/database-errors';
import { Prisma } from '../generated/prisma/client';
import type { LinkRow } from '../tenants/tenant-data';

const FOREIGN_KEY_VIOLATION = '23503';

/** A link attempt under way: what the callback checks and where it sends the browser. */
export interface LinkAttempt {
  state: string;
  tenantId: string;
  identityId: string;
  accountProviderId: string;
  codeVerifier: string;
  nonce: string;
  returnUrl: string;
}

/** The tenant's allowed return URLs and the provider's link settings. */
export interface LinkTarget {
  returnUrls: string[];
  /** Null when the tenant has no such provider. */
  provider: { link: LinkRow | null } | null;
}

/** Link tickets' key and link attempts (docs/api.md, linking an account). */
@Injectable()
export class AccountLinkRepository {
  constructor(private readonly database: Database) {}

  /** The database's key for link tickets (made by a migration). */
  async findLinkKey(): Promise<Buffer> {
    const key = await this.database.prisma.serviceKey.findUniqueOrThrow({
      where: { name: 'link' },
    });
    return Buffer.from(key.secret);
  }

  /** Undefined when there is no such tenant. */
  async findLinkTarget(
    tenantId: string,
    providerId: string,
  ): Promise<LinkTarget | undefined> {
    const tenant = await this.database.prisma.tenant.findUnique({
      where: { id: tenantId },
      select: {
        linkReturnUrls: true,
        providers: {
          where: { accountProviderId: providerId },
          select: { link: true },
        },
      },
    });
    if (!tenant) return undefined;
    const [provider] = tenant.providers;
    return {
      returnUrls: tenant.linkReturnUrls,
      provider: provider
        ? { link: provider.link as unknown as LinkRow | null }
        : null,
    };
  }

  /**
   * Records an attempt that the ticket `ticketHash` starts, or says that
   * the ticket started one already. Attempts older than `keepSeconds` go
   * first: by then no ticket of their time is accepted any more.
   */
  async startAttempt(
    attempt: LinkAttempt,
    ticketHash: string,
    expiresInSeconds: number,
    keepSeconds: number,
  ): Promise<'started' | 'ticket-used' | 'gone'> {
    this.database.readFromPrimary();
    await this.database.prisma.$executeRaw`
      DELETE FROM link_attempt
       WHERE created_at < now() - make_interval(secs => ${keepSeconds})`;
    const rows = this.database.query<{ state: string }>(Prisma.sql`
      INSERT INTO link_attempt (state, ticket_hash, tenant_id, identity_id, account_provider_id,
                                code_verifier, nonce, return_url, expires_at)
      VALUES (${attempt.state}, ${ticketHash}, ${attempt.tenantId}, ${attempt.identityId},
              ${attempt.accountProviderId}, ${attempt.codeVerifier}, ${attempt.nonce},
              ${attempt.returnUrl}, now() + make_interval(secs => ${expiresInSeconds}))
      ON CONFLICT (ticket_hash) DO NOTHING
      RETURNING state`);
    try {
      return (await rows).length ? 'started' : 'ticket-used';
    } catch (error) {
      // The identity or the provider went meanwhile (a foreign key).
      if (errorCodes(error).includes(FOREIGN_KEY_VIOLATION)) return 'gone';
      throw error;
    }
  }

  /**
   * Takes the attempt of `state` for its callback, once: the attempt when
   * it was live and unused, `spent` (with where its browser goes) when it
   * was used or has expired, undefined when there is none.
   */
  async claimAttempt(
    state: string,
  ): Promise<
    | LinkAttempt
    | { spent: true; returnUrl: string; accountProviderId: string }
    | undefined
  > {
    this.database.readFromPrimary();
    const [row] = await this.database.query<LinkAttempt & { live: boolean }>(
      Prisma.sql`
        WITH taken AS (
          UPDATE link_attempt SET used_at = now()
           WHERE state = ${state} AND used_at IS NULL AND expires_at > now()
          RETURNING state, tenant_id AS "tenantId", identity_id AS "identityId",
                    account_provider_id AS "accountProviderId", code_verifier AS "codeVerifier",
                    nonce, return_url AS "returnUrl", true AS live)
        SELECT * FROM taken
        UNION ALL
        SELECT state, tenant_id, identity_id, account_provider_id, '', '', return_url, false
          FROM link_attempt
         WHERE state = ${state} AND NOT EXISTS (SELECT 1 FROM taken)`,
    );
    if (!row) return undefined;
    if (!row.live)
      return {
        spent: true,
        returnUrl: row.returnUrl,
        accountProviderId: row.accountProviderId,
      };
    const { live: _live, ...attempt } = row;
    return attempt;
  }
}
