import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { sql } from 'kysely';
import {
  builder,
  exists,
  onTenantKey,
  statement,
  StatementRow,
} from '../database/sql';
import { appendEvents, eventsOf } from '../events/events.repository';
import type { AccountRow } from '../tenants/tenant-data';

/**
 * Every provider of the tenant in its order, joined to the identity's
 * accounts there: a provider without one gives a row of nulls for it.
 */
const PROVIDER_ACCOUNTS = statement(
  (p: { tenantId: string; identityId: string }) =>
    builder
      .selectFrom('account_provider as p')
      .leftJoin('account as a', (join) =>
        onTenantKey(join, 'a', 'p', 'account_provider_id').on(
          'a.identity_id',
          '=',
          p.identityId,
        ),
      )
      .select((eb) => [
        'p.account_provider_id as accountProviderId',
        'p.display_name as providerDisplayName',
        'p.provider_image_url as providerImageUrl',
        'p.sign_in_url as signInUrl',
        'p.allows_multiple_accounts as allowsMultipleAccounts',
        // Whether the provider has link settings (docs/api.md, linking an account).
        eb('p.link', 'is not', null).as('linkable'),
        // When the identity last started a link at it, in epoch ms ('0'
        // for none, or not linkable): a new start always changes it, where a
        // count of the attempts kept could fall back to a value a ticket of
        // this window already used once old attempts are deleted.
        sql<string>`CASE WHEN p.link IS NULL THEN '0' ELSE coalesce((${eb
          .selectFrom('link_attempt as la')
          .select(
            sql<string>`floor(extract(epoch from max(la.created_at)) * 1000)::int8::text`.as(
              'at',
            ),
          )
          .whereRef('la.tenant_id', '=', 'p.tenant_id')
          .where('la.identity_id', '=', p.identityId)
          .whereRef(
            'la.account_provider_id',
            '=',
            'p.account_provider_id',
          )}), '0') END`.as('lastLinkStart'),
        'a.account_id as accountId',
        'a.issued_user_id as issuedUserId',
        'a.account_private_personal_identifier as accountPrivatePersonalIdentifier',
        'a.display_name as displayName',
        'a.email_address as emailAddress',
        'a.account_profile_url as accountProfileUrl',
        'a.picture_url as pictureUrl',
      ])
      .where('p.tenant_id', '=', p.tenantId)
      .orderBy('p.position')
      .orderBy('a.account_id'),
);

/** A provider of the tenant joined to one of the identity's accounts there, if any. */
export type ProviderAccountRecord = StatementRow<typeof PROVIDER_ACCOUNTS>;

interface AccountParams {
  tenantId: string;
  identityId: string;
  accountId: string;
}

/** Locks the identity's row for the rest of the transaction; a row when it exists. */
const LOCK_IDENTITY = statement((p: { tenantId: string; identityId: string }) =>
  builder
    .selectFrom('identity')
    .select(sql.lit(1).as('one'))
    .where('tenant_id', '=', p.tenantId)
    .where('identity_id', '=', p.identityId)
    .forUpdate(),
);

/** Records the account unless its id or its issued user is taken; the row it wrote, if any. */
const INSERT_ACCOUNT = statement((p: AccountRow & { tenantId: string }) =>
  builder
    .insertInto('account')
    .values({
      tenant_id: p.tenantId,
      account_id: p.accountId,
      identity_id: p.identityId,
      account_provider_id: p.accountProviderId,
      issued_user_id: p.issuedUserId,
      account_private_personal_identifier: p.accountPrivatePersonalIdentifier,
      display_name: p.displayName,
      email_address: p.emailAddress,
      account_profile_url: p.accountProfileUrl,
      picture_url: p.pictureUrl,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('account_id'),
);

/** What decides whether the account may be recorded for the identity; see addAccount. */
const ACCOUNT_FACTS = statement(
  (p: AccountParams & { accountProviderId: string; issuedUserId: string }) =>
    builder.selectNoFrom((eb) => {
      const accounts = eb
        .selectFrom('account')
        .where('tenant_id', '=', p.tenantId);
      return [
        eb
          .selectFrom('account_provider')
          .select('allows_multiple_accounts')
          .where('tenant_id', '=', p.tenantId)
          .where('account_provider_id', '=', p.accountProviderId)
          .as('allowsMultiple'),
        exists(
          eb,
          accounts
            .select(sql.lit(1).as('one'))
            .where('identity_id', '=', p.identityId)
            .where('account_provider_id', '=', p.accountProviderId),
        ).as('hasOne'),
        accounts
          .select('identity_id')
          .where('account_provider_id', '=', p.accountProviderId)
          .where('issued_user_id', '=', p.issuedUserId)
          .as('usedBy'),
        exists(
          eb,
          accounts
            .select(sql.lit(1).as('one'))
            .where('account_id', '=', p.accountId),
        ).as('idTaken'),
      ];
    }),
);

/** Removes the identity's account with its event; see removeAccount. */
const REMOVE_ACCOUNT = statement((p: AccountParams) =>
  builder
    .with('removed', (db) =>
      db
        .deleteFrom('account')
        .where('tenant_id', '=', p.tenantId)
        .where('identity_id', '=', p.identityId)
        .where('account_id', '=', p.accountId)
        .returning('identity_id as identityId'),
    )
    .with('event', () =>
      eventsOf('removed', p.tenantId, 'updated', ['accounts']),
    )
    .selectFrom('removed')
    .select(sql<number>`count(*)::int`.as('removed')),
);

/** An account to record for an identity, as the import format has it. */
export type NewAccount = Omit<AccountRow, 'identityId'>;

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
    return this.database.read.rows(PROVIDER_ACCOUNTS, { tenantId, identityId });
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
    return this.database.transaction(async (tx) => {
      const locked = await tx.rows(LOCK_IDENTITY, {
        tenantId,
        identityId,
      });
      if (locked.length === 0) return 'no-identity';
      const [facts] = await tx.rows(ACCOUNT_FACTS, {
        tenantId,
        identityId,
        accountId: account.accountId,
        accountProviderId: account.accountProviderId,
        issuedUserId: account.issuedUserId,
      });
      if (facts.allowsMultiple === null) return 'no-provider';
      if (facts.usedBy !== null) return 'account-in-use';
      if (facts.idTaken) return 'account-id-taken';
      if (facts.hasOne && !facts.allowsMultiple) return 'limit-reached';
      const inserted = await tx.rows(INSERT_ACCOUNT, {
        ...account,
        tenantId,
        identityId,
      });
      // Taken meanwhile by a recording that did not hold this identity's lock.
      if (inserted.length === 0) return 'account-in-use';
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
    const [row] = await this.database.primary.rows(REMOVE_ACCOUNT, {
      tenantId,
      identityId,
      accountId,
    });
    return row.removed > 0;
  }
}
