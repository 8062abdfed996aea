import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Prisma } from '../generated/prisma/client';

/** A provider of the tenant joined to one of the identity's accounts there, if any. */
export interface ProviderAccountRecord {
  accountProviderId: string;
  providerDisplayName: string | null;
  providerImageUrl: string | null;
  signInUrl: string;
  allowsMultipleAccounts: boolean;
  accountId: string | null;
  issuedUserId: string | null;
  accountPrivatePersonalIdentifier: string | null;
  displayName: string | null;
  emailAddress: string | null;
  accountProfileUrl: string | null;
  pictureUrl: string | null;
}

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
}
