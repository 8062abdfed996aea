import { Injectable } from '@nestjs/common';
import { WRITTEN } from '../identity/identity-writes';
import { Database } from '../database/database';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  USER_NAME_INDEX,
} from '../database/database-errors';
import { sql } from 'kysely';
import { builder, statement } from '../database/sql';
import { eventsOf } from '../events/events.repository';
import type { Identity } from '../generated/kysely/tables';
import {
  FIELD_NAMES,
  IDENTITY_FIELDS,
  type IdentityField,
} from '../identity/identity-fields';
import {
  IDENTITY_COLUMN,
  IDENTITY_SELECTION,
  SQL_TYPE_OF_KIND,
} from '../identity/identity.repository';
import type { IdentityRecord } from '../identity/identity.record';
import type { IdentityMatch } from './token-issuer';
import type { ClaimedAccount, ClaimedFields } from './sign-in-claims';

/** Moves the identity's lastLogin forward; see recordSignIn. */
const RECORD_SIGN_IN = statement(
  (p: { tenantId: string; identityId: string; at: Date }) =>
    builder
      .with('updated', (db) =>
        db
          .updateTable('identity as i')
          .set({
            last_login: p.at,
            ...WRITTEN,
          })
          .where('i.tenant_id', '=', p.tenantId)
          .where('i.identity_id', '=', p.identityId)
          .where((eb) =>
            eb.or([
              eb('i.last_login', 'is', null),
              eb('i.last_login', '<', p.at),
            ]),
          )
          .returning(IDENTITY_SELECTION),
      )
      .with('event', () =>
        eventsOf('updated', p.tenantId, 'updated', ['lastLogin']),
      )
      .selectFrom('updated')
      .selectAll(),
);

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
    try {
      const created = await this.database.primary.query(
        createStatement(tenantId, identityId, fields, account),
      );
      return created.length > 0;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
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
    const { match, subject, provider } = key;
    // Locked on the key's canonical form, the one KEY_TAKEN compares.
    const folded = match === 'userName' || match === 'verifiedEmail';
    try {
      return await this.database.transaction(async (tx) => {
        await tx.rows(LOCK_KEY, {
          prefix: [tenantId, match, provider ?? '', ''].join(' '),
          folded,
          subject,
        });
        const [exists] = await tx.rows(KEY_TAKEN[match], {
          tenantId,
          subject,
          provider,
        });
        if (exists) return false;
        const created = await tx.query(
          createStatement(tenantId, identityId, fields, account),
        );
        return created.length > 0;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
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
    const [row] = await this.database.primary.rows(RECORD_SIGN_IN, {
      tenantId,
      identityId,
      at,
    });
    return row;
  }
}

interface KeyParams {
  tenantId: string;
  subject: string;
  provider: string | null;
}

/** Whether an identity (or an account) of the tenant has the key, by each kind of key. */
const KEY_TAKEN = {
  externalId: statement((p: KeyParams) =>
    builder
      .selectFrom('identity')
      .select(sql.lit(1).as('one'))
      .where('tenant_id', '=', p.tenantId)
      .where('external_id', '=', p.subject),
  ),
  userName: statement((p: KeyParams) =>
    builder
      .selectFrom('identity')
      .select(sql.lit(1).as('one'))
      .where('tenant_id', '=', p.tenantId)
      .where(sql<boolean>`ascii_lower(user_name) = ascii_lower(${p.subject})`),
  ),
  verifiedEmail: statement((p: KeyParams) =>
    builder
      .selectFrom('identity')
      .select(sql.lit(1).as('one'))
      .where('tenant_id', '=', p.tenantId)
      .where(
        sql<boolean>`ascii_lower(email_address) = ascii_lower(${p.subject})`,
      )
      .where('email_address_verified', '=', true),
  ),
  account: statement((p: KeyParams) =>
    builder
      .selectFrom('account')
      .select(sql.lit(1).as('one'))
      .where('tenant_id', '=', p.tenantId)
      .where('account_provider_id', '=', p.provider)
      .where('issued_user_id', '=', p.subject),
  ),
};

/** The lock creators of a just-in-time identity by one key take (any constant apart from the others). */
const JIT_LOCK = 0x1d41;

/**
 * Takes the lock of one key of a just-in-time identity: `prefix` names the
 * tenant, the match and the provider, `subject` the key's value, in the
 * canonical form KEY_TAKEN compares when `folded`.
 */
const LOCK_KEY = statement(
  (p: { prefix: string; folded: boolean; subject: string }) =>
    builder
      .selectFrom(
        sql`pg_advisory_xact_lock(${JIT_LOCK}::int, hashtext(${p.prefix}::text
          || CASE WHEN ${p.folded}::boolean THEN ascii_lower(${p.subject}::text)
             ELSE ${p.subject}::text END))`.as('lock'),
      )
      .select(sql<number>`1`.as('locked')),
);

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
) {
  // In the field table's order, as an import's event lists them.
  const given = FIELD_NAMES.filter((f) => f in fields).map(
    (f) => [f, fields[f as keyof ClaimedFields]] as const,
  );
  const created = identityCreated(tenantId, identityId, given);
  const event = eventsOf(
    'created',
    tenantId,
    'created',
    given.map(([f]) => f),
  );
  if (!account)
    return created
      .with('event', () => event)
      .selectFrom('created')
      .select('identityId');
  return accountCreated(created, tenantId, account)
    .with('event', () => event)
    .selectFrom('created')
    .select('identityId');
}

/**
 * The `created` step of createStatement: the identity with the fields
 * `given`, unless the id exists or an identity keeps it as merged into it.
 */
function identityCreated(
  tenantId: string,
  identityId: string,
  given: readonly (readonly [IdentityField, unknown])[],
) {
  return builder.with('created', (db) =>
    db
      .insertInto('identity')
      .columns([
        'tenant_id',
        'identity_id',
        // Columns of the identity's fields (IDENTITY_COLUMN).
        ...given.map(([field]) => IDENTITY_COLUMN[field] as keyof Identity),
      ])
      .expression(
        builder
          .selectNoFrom((eb) => [
            eb.val(tenantId).as('tenant_id'),
            eb.val(identityId).as('identity_id'),
            ...given.map(([field, value]) =>
              sql`${value}::${sql.raw(SQL_TYPE_OF_KIND[IDENTITY_FIELDS[field].kind])}`.as(
                IDENTITY_COLUMN[field],
              ),
            ),
          ])
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('identity')
                  .select(sql.lit(1).as('one'))
                  .where('tenant_id', '=', tenantId)
                  .where('old_identity_ids', '<>', sql<string[]>`'{}'`)
                  .where(
                    'old_identity_ids',
                    '@>',
                    sql<string[]>`ARRAY[${identityId}]::text[]`,
                  ),
              ),
            ),
          ),
      )
      .onConflict((conflict) =>
        conflict.columns(['tenant_id', 'identity_id']).doNothing(),
      )
      .returning('identity_id as identityId'),
  );
}

/** The `account` step of createStatement: the account, unless its id or issued id is taken. */
function accountCreated(
  created: ReturnType<typeof identityCreated>,
  tenantId: string,
  a: ClaimedAccount,
) {
  return created.with('account', (db) =>
    db
      .insertInto('account')
      .columns([
        'tenant_id',
        'account_id',
        'identity_id',
        'account_provider_id',
        'issued_user_id',
        'display_name',
        'email_address',
        'picture_url',
      ])
      .expression((eb) =>
        eb
          .selectFrom('created as c')
          .select([
            eb.val(tenantId).as('tenant_id'),
            eb.val(a.accountId).as('account_id'),
            'c.identityId as identity_id',
            eb.val(a.accountProviderId).as('account_provider_id'),
            eb.val(a.issuedUserId).as('issued_user_id'),
            sql<string | null>`${a.displayName}::text`.as('display_name'),
            sql<string | null>`${a.emailAddress}::text`.as('email_address'),
            sql<string | null>`${a.pictureUrl}::text`.as('picture_url'),
          ]),
      )
      .onConflict((conflict) => conflict.doNothing()),
  );
}
