import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { appendEvents, appendEventsOf } from '../events/events.repository';
import { Prisma } from '../generated/prisma/client';

/** A provider of the tenant joined to one of the identity's accounts there, if any. */
export interface ProviderAccountRecord {
  accountProviderId: string;
  providerDisplayName: string | null;
  providerImageUrl: string | null;
  signInUrl: string;
  allowsMultipleAccounts: boolean;
  /** Whether the provider has link settings (docs/api.md, linking an account). */
  linkable: boolean;
  /** How many link attempts at it the identity has started lately (0 when not linkable). */
  linkAttempts: number;
  accountId: string | null;
  issuedUserId: string | null;
  accountPrivatePersonalIdentifier: string | null;
  displayName: string | null;
  emailAddress: string | null;
  accountProfileUrl: string | null;
  pictureUrl: string | null;
}

/** An account to record for an identity, as the import format has it. */
export interface NewAccount {
  accountId: string;
  accountProviderId: string;
  issuedUserId: string;
  accountPrivatePersonalIdentifier: string | null;
  displayName: string | null;
  emailAddress: string | null;
  accountProfileUrl: string | null;
  pictureUrl: string | null;
}

/** Why an account was not recorded, or `recorded`. */
export type AddOutcome =
  | 'recorded'
  | 'no-identity'
  | 'no-provider'
  | 'limit-reached'
  | 'account-in-use'
  | 'account-id-taken';

@Injectable()
export class AccountsRepository {
  constructor(private readonly database: Database) {}

  /** Every provider of the tenant in its order, with the identity's accounts, in one query. */
  findProviderAccounts(
    tenantId: string,
    identityId: string,
  ): Promise<ProviderAccountRecord[]> {
    return this.database.query<ProviderAccountRecord>(Prisma.sql`
      SELECT p.account_provider_id AS "accountProviderId", p.display_name AS "providerDisplayName",
             p.provider_image_url AS "providerImageUrl", p.sign_in_url AS "signInUrl",
             p.allows_multiple_accounts AS "allowsMultipleAccounts",
             p.link IS NOT NULL AS "linkable",
             CASE WHEN p.link IS NULL THEN 0 ELSE (
               SELECT count(*)::int FROM link_attempt la
                WHERE la.tenant_id = p.tenant_id AND la.identity_id = ${identityId}
                  AND la.account_provider_id = p.account_provider_id) END AS "linkAttempts",
             a.account_id AS "accountId", a.issued_user_id AS "issuedUserId",
             a.account_private_personal_identifier AS "accountPrivatePersonalIdentifier",
             a.display_name AS "displayName", a.email_address AS "emailAddress",
             a.account_profile_url AS "accountProfileUrl", a.picture_url AS "pictureUrl"
        FROM account_provider p
        LEFT JOIN account a ON a.tenant_id = p.tenant_id
                           AND a.account_provider_id = p.account_provider_id
                           AND a.identity_id = ${identityId}
       WHERE p.tenant_id = ${tenantId}
       ORDER BY p.position, a.account_id`);
  }
  /**
   * Records the account for the identity with an `updated` event naming
   * `accounts`, in one transaction that holds the identity's row lock, so
   * that concurrent recordings at a provider that allows one account
   * cannot both succeed.
   */
  addAccount(
    tenantId: string,
    identityId: string,
    account: NewAccount,
  ): Promise<AddOutcome> {
    this.database.readFromPrimary();
    return this.database.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<unknown[]>`
        SELECT 1 FROM identity WHERE tenant_id = ${tenantId} AND identity_id = ${identityId}
           FOR UPDATE`;
      if (locked.length === 0) return 'no-identity';
      const [facts] = await tx.$queryRaw<
        {
          allowsMultiple: boolean | null;
          hasOne: boolean;
          usedBy: string | null;
          idTaken: boolean;
        }[]
      >`
        SELECT (SELECT allows_multiple_accounts FROM account_provider
                 WHERE tenant_id = ${tenantId} AND account_provider_id = ${account.accountProviderId}) AS "allowsMultiple",
               EXISTS (SELECT 1 FROM account WHERE tenant_id = ${tenantId} AND identity_id = ${identityId}
                         AND account_provider_id = ${account.accountProviderId}) AS "hasOne",
               (SELECT identity_id FROM account WHERE tenant_id = ${tenantId}
                   AND account_provider_id = ${account.accountProviderId}
                   AND issued_user_id = ${account.issuedUserId}) AS "usedBy",
               EXISTS (SELECT 1 FROM account WHERE tenant_id = ${tenantId}
                         AND account_id = ${account.accountId}) AS "idTaken"`;
      if (facts.allowsMultiple === null) return 'no-provider';
      if (facts.usedBy !== null) return 'account-in-use';
      if (facts.idTaken) return 'account-id-taken';
      if (facts.hasOne && !facts.allowsMultiple) return 'limit-reached';
      const a = account;
      const inserted = await tx.$executeRaw`
        INSERT INTO account (tenant_id, account_id, identity_id, account_provider_id, issued_user_id,
                             account_private_personal_identifier, display_name, email_address,
                             account_profile_url, picture_url)
        VALUES (${tenantId}, ${a.accountId}, ${identityId}, ${a.accountProviderId}, ${a.issuedUserId},
                ${a.accountPrivatePersonalIdentifier}, ${a.displayName}, ${a.emailAddress},
                ${a.accountProfileUrl}, ${a.pictureUrl})
        ON CONFLICT DO NOTHING`;
      // Taken meanwhile by a recording that did not hold this identity's lock.
      if (inserted === 0) return 'account-in-use';
      await appendEvents(tx, tenantId, [
        { identityId, type: 'updated', fields: ['accounts'] },
      ]);
      return 'recorded';
    });
  }

  /**
   * Removes the identity's account (its tokens go with it), with an
   * `updated` event naming `accounts`, in one statement; whether it had it.
   */
  async removeAccount(
    tenantId: string,
    identityId: string,
    accountId: string,
  ): Promise<boolean> {
    this.database.readFromPrimary();
    const [row] = await this.database.query<{ removed: number }>(Prisma.sql`
      WITH removed AS (
        DELETE FROM account
         WHERE tenant_id = ${tenantId} AND identity_id = ${identityId}
           AND account_id = ${accountId}
        RETURNING identity_id AS "identityId"
      ), event AS (${appendEventsOf('removed', tenantId, 'updated', ['accounts'])})
      SELECT count(*)::int AS removed FROM removed`);
    return row.removed > 0;
  }
}
