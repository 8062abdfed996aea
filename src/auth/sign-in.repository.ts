import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import {
  errorCodes,
  isUniqueViolation,
  USER_NAME_INDEX,
} from '../database/database-errors';
import { appendEventsOf } from '../events/events.repository';
import { Prisma } from '../generated/prisma/client';
import { FIELD_NAMES, IDENTITY_FIELDS } from '../identity/identity-fields';
import {
  IDENTITY_COLUMN,
  IDENTITY_RECORD_COLUMNS,
  SQL_TYPE_OF_KIND,
} from '../identity/identity.repository';
import type { IdentityRecord } from '../identity/identity.record';
import type { IdentityMatch } from './token-issuer';
import type { ClaimedAccount, ClaimedFields } from './sign-in-claims';

/** SQLSTATE of a foreign key violation: the tenant or provider went away meanwhile. */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The writes a sign-in with a JWT makes: a just-in-time identity, and its
 * `lastLogin`. Both are writes, so they and the rest of the request go to
 * the primary, whatever replica the request was reading from.
 */
@Injectable()
export class SignInRepository {
  constructor(private readonly database: Database) {}

  /**
   * Creates the identity with its account and its `created` event, in one
   * statement. Requests racing to create it create it once: the others
   * insert nothing and write no event. An id that an identity keeps as
   * merged into it is not created again. True when this call created it.
   */
  async createIdentity(
    tenantId: string,
    identityId: string,
    fields: ClaimedFields,
    account: ClaimedAccount | null,
  ): Promise<boolean> {
    this.database.readFromPrimary();
    try {
      const created = await this.database.query<{ identityId: string }>(
        createStatement(tenantId, identityId, fields, account),
      );
      return created.length > 0;
    } catch (error) {
      if (errorCodes(error).includes(FOREIGN_KEY_VIOLATION)) return false;
      // The claimed userName is another identity's: a claim that does not
      // fit is left out, as any other.
      if (
        fields.userName !== undefined &&
        isUniqueViolation(error, USER_NAME_INDEX)
      ) {
        const { userName: _, ...rest } = fields;
        return this.createIdentity(tenantId, identityId, rest, account);
      }
      throw error;
    }
  }

  /**
   * Creates the identity (new id `identityId`) that a token of an issuer
   * matching `key.match` names, unless one has that key by now: creators of
   * one key queue on a transaction-scoped lock on it and look again once
   * they hold it, so racing first requests create one identity. True when
   * this call created it.
   */
  async createMatchedIdentity(
    tenantId: string,
    identityId: string,
    fields: ClaimedFields,
    account: ClaimedAccount | null,
    key: {
      match: Exclude<IdentityMatch, 'identityId'>;
      subject: string;
      provider: string | null;
    },
  ): Promise<boolean> {
    this.database.readFromPrimary();
    const { match, subject, provider } = key;
    const normalized =
      match === 'userName' || match === 'verifiedEmail'
        ? subject.toLowerCase()
        : subject;
    const taken = {
      externalId: Prisma.sql`SELECT 1 FROM identity
         WHERE tenant_id = ${tenantId} AND external_id = ${subject}`,
      userName: Prisma.sql`SELECT 1 FROM identity
         WHERE tenant_id = ${tenantId} AND lower(user_name) = lower(${subject})`,
      verifiedEmail: Prisma.sql`SELECT 1 FROM identity
         WHERE tenant_id = ${tenantId} AND lower(email_address) = lower(${subject})
           AND email_address_verified`,
      account: Prisma.sql`SELECT 1 FROM account
         WHERE tenant_id = ${tenantId} AND account_provider_id = ${provider}
           AND issued_user_id = ${subject}`,
    }[match];
    try {
      return await this.database.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(${JIT_LOCK}::int,
          hashtext(${[tenantId, match, provider ?? '', normalized].join(' ')}))::text`;
        const [exists] = await tx.$queryRaw<unknown[]>(taken);
        if (exists) return false;
        const created = await tx.$queryRaw<{ identityId: string }[]>(
          createStatement(tenantId, identityId, fields, account),
        );
        return created.length > 0;
      });
    } catch (error) {
      if (errorCodes(error).includes(FOREIGN_KEY_VIOLATION)) return false;
      // Another identity has the claimed userName (of preferred_username):
      // left out, as any claim that does not fit. With match userName the
      // subject is that key, and whoever has it is found instead.
      if (
        match !== 'userName' &&
        fields.userName !== undefined &&
        isUniqueViolation(error, USER_NAME_INDEX)
      ) {
        const { userName: _, ...rest } = fields;
        return this.createMatchedIdentity(
          tenantId,
          identityId,
          rest,
          account,
          key,
        );
      }
      if (isUniqueViolation(error, USER_NAME_INDEX)) return false;
      throw error;
    }
  }

  /**
   * Moves the identity's `lastLogin` forward to `at`, with a new version and
   * an `updated` event, in one statement; the identity as updated, or
   * undefined when its `lastLogin` is `at` or later already.
   */
  async recordSignIn(
    tenantId: string,
    identityId: string,
    at: Date,
  ): Promise<IdentityRecord | undefined> {
    this.database.readFromPrimary();
    const [row] = await this.database.query<IdentityRecord>(Prisma.sql`
      WITH updated AS (
        UPDATE identity AS i
           SET last_login = ${at}, version = nextval('identity_version_seq'), updated_at = now()
         WHERE i.tenant_id = ${tenantId} AND i.identity_id = ${identityId}
           AND (i.last_login IS NULL OR i.last_login < ${at})
        RETURNING ${IDENTITY_RECORD_COLUMNS}
      ), event AS (${appendEventsOf('updated', tenantId, 'updated', ['lastLogin'])})
      SELECT * FROM updated`);
    return row;
  }
}

/** The lock creators of a just-in-time identity by one key take (any constant apart from the others). */
const JIT_LOCK = 0x1d41;

/**
 * One statement that creates the identity with its account and its
 * `created` event, unless the id exists or an identity keeps it as merged
 * into it; it answers the id it created, if any.
 */
function createStatement(
  tenantId: string,
  identityId: string,
  fields: ClaimedFields,
  account: ClaimedAccount | null,
): Prisma.Sql {
  // In the field table's order, as an import's event lists them.
  const given = FIELD_NAMES.filter((f) => f in fields).map(
    (f) => [f, fields[f as keyof ClaimedFields]] as const,
  );
  const columns = given.map(([field]) => Prisma.raw(IDENTITY_COLUMN[field]));
  const values = given.map(
    ([field, value]) =>
      Prisma.sql`${value}::${Prisma.raw(SQL_TYPE_OF_KIND[IDENTITY_FIELDS[field].kind])}`,
  );
  return Prisma.sql`
    WITH created AS (
      INSERT INTO identity (${Prisma.join([Prisma.raw('tenant_id, identity_id'), ...columns])})
      SELECT ${Prisma.join([Prisma.sql`${tenantId}, ${identityId}`, ...values])}
       WHERE NOT EXISTS (
         SELECT 1 FROM identity WHERE tenant_id = ${tenantId}
            AND old_identity_ids <> '{}' AND old_identity_ids @> ARRAY[${identityId}]::text[])
      ON CONFLICT (tenant_id, identity_id) DO NOTHING
      RETURNING identity_id AS "identityId"
    )${account ? insertAccount(tenantId, account) : Prisma.empty},
    event AS (${appendEventsOf(
      'created',
      tenantId,
      'created',
      given.map(([f]) => f),
    )})
    SELECT "identityId" FROM created`;
}

/** A CTE inserting the account of the identity the `created` CTE made, unless its id or issued id is taken. */
function insertAccount(tenantId: string, a: ClaimedAccount): Prisma.Sql {
  return Prisma.sql`, account AS (
    INSERT INTO account (tenant_id, account_id, identity_id, account_provider_id,
                         issued_user_id, display_name, email_address, picture_url)
    SELECT ${tenantId}, ${a.accountId}, c."identityId", ${a.accountProviderId},
           ${a.issuedUserId}, ${a.displayName}::text, ${a.emailAddress}::text, ${a.pictureUrl}::text
      FROM created c
    ON CONFLICT DO NOTHING)`;
}
