import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { isForeignKeyViolation } from '../database/database-errors';
import { sql } from 'kysely';
import { builder, statement } from '../database/sql';
import type { LinkRow } from '../tenants/tenant-data';
import type { NewAccount } from './accounts.repository';

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
  /** Null when the tenant has no such provider; its client secret sealed. */
  provider: { link: LinkRow | null; sealedSecret: string | null } | null;
}

interface NewAttempt extends LinkAttempt {
  ticketHash: string;
  expiresInSeconds: number;
}

/** Records an attempt unless its ticket started one; see startAttempt. */
const START_ATTEMPT = statement((p: NewAttempt) =>
  builder
    .insertInto('link_attempt')
    .values({
      state: p.state,
      ticket_hash: p.ticketHash,
      tenant_id: p.tenantId,
      identity_id: p.identityId,
      account_provider_id: p.accountProviderId,
      code_verifier: p.codeVerifier,
      nonce: p.nonce,
      return_url: p.returnUrl,
      expires_at: sql<Date>`now() + make_interval(secs => ${p.expiresInSeconds})`,
    })
    .onConflict((conflict) => conflict.column('ticket_hash').doNothing())
    .returning('state'),
);

/**
 * Drops the attempts older than `keepSeconds` that no confirmation waits
 * for: by then no ticket of their time is accepted any more.
 */
const PRUNE_ATTEMPTS = statement((p: { keepSeconds: number }) =>
  builder
    .deleteFrom('link_attempt')
    .where(
      'created_at',
      '<',
      sql<Date>`now() - make_interval(secs => ${p.keepSeconds})`,
    )
    .where((eb) =>
      eb.or([
        eb('confirm_expires_at', 'is', null),
        eb('confirm_expires_at', '<', sql<Date>`now()`),
      ]),
    ),
);

/**
 * Takes the tenant's live, unused attempt of `state` (live: true), or reads
 * the spent one without what a callback would need of it (live: false).
 * Another tenant's callback path neither takes nor sees it.
 */
const CLAIM_ATTEMPT = statement((p: { tenantId: string; state: string }) =>
  builder
    .with('taken', (db) =>
      db
        .updateTable('link_attempt')
        .set({ used_at: sql<Date>`now()` })
        .where('state', '=', p.state)
        .where('tenant_id', '=', p.tenantId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning([
          'state',
          'tenant_id as tenantId',
          'identity_id as identityId',
          'account_provider_id as accountProviderId',
          'code_verifier as codeVerifier',
          'nonce',
          'return_url as returnUrl',
          sql<boolean>`true`.as('live'),
        ]),
    )
    .selectFrom('taken')
    .selectAll()
    .unionAll((db) =>
      db
        .selectFrom('link_attempt')
        .select([
          'state',
          'tenant_id as tenantId',
          'identity_id as identityId',
          'account_provider_id as accountProviderId',
          sql<string>`''`.as('codeVerifier'),
          sql<string>`''`.as('nonce'),
          'return_url as returnUrl',
          sql<boolean>`false`.as('live'),
        ])
        .where('state', '=', p.state)
        .where('tenant_id', '=', p.tenantId)
        .where((eb) =>
          eb.not(
            eb.exists(eb.selectFrom('taken').select(sql.lit(1).as('one'))),
          ),
        ),
    ),
);

/**
 * Keeps the account a callback would record on its attempt, with the hash
 * of the code that confirms it and the code's expiry.
 */
const AWAIT_CONFIRMATION = statement(
  (p: {
    tenantId: string;
    state: string;
    account: string;
    codeHash: string;
    expiresInSeconds: number;
  }) =>
    builder
      .updateTable('link_attempt')
      .set({
        account: sql`${p.account}::jsonb`,
        confirm_hash: p.codeHash,
        confirm_expires_at: sql<Date>`now() + make_interval(secs => ${p.expiresInSeconds})`,
      })
      .where('state', '=', p.state)
      .where('tenant_id', '=', p.tenantId)
      .where('confirm_hash', 'is', null)
      .returning('state'),
);

/**
 * Spends the tenant's unspent code of `codeHash`, whoever presents it,
 * and reads what it would confirm.
 */
const TAKE_CONFIRMATION = statement(
  (p: { tenantId: string; codeHash: string }) =>
    builder
      .updateTable('link_attempt')
      .set({ confirmed_at: sql<Date>`now()` })
      .where('confirm_hash', '=', p.codeHash)
      .where('tenant_id', '=', p.tenantId)
      .where('confirmed_at', 'is', null)
      .returning([
        'identity_id as identityId',
        'account',
        sql<boolean>`confirm_expires_at > now()`.as('live'),
      ]),
);

/** A link that waits for its identity's confirmation (docs/api.md, linking an account). */
export interface PendingLink {
  identityId: string;
  account: NewAccount;
  live: boolean;
}

/** Link tickets' key and link attempts (docs/api.md, linking an account). */
@Injectable()
export class AccountLinkRepository {
  constructor(private readonly database: Database) {}

  /** The database's key for link tickets (made by a migration). */
  async findLinkKey(): Promise<Buffer> {
    const key = await this.database.models.serviceKey.findUniqueOrThrow({
      where: { name: 'link' },
    });
    return Buffer.from(key.secret);
  }

  /** Undefined when there is no such tenant. */
  async findLinkTarget(
    tenantId: string,
    providerId: string,
  ): Promise<LinkTarget | undefined> {
    const tenant = await this.database.models.tenant.findUnique({
      where: { id: tenantId },
      select: {
        linkReturnUrls: true,
        providers: {
          where: { accountProviderId: providerId },
          select: { link: true, clientSecret: true },
        },
      },
    });
    if (!tenant) return undefined;
    const [provider] = tenant.providers;
    return {
      returnUrls: tenant.linkReturnUrls,
      provider: provider
        ? {
            link: provider.link as unknown as LinkRow | null,
            sealedSecret: provider.clientSecret,
          }
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
    // The prune and the new attempt commit together, or neither does.
    const rows = this.database.transaction(async (tx) => {
      await tx.rows(PRUNE_ATTEMPTS, { keepSeconds });
      return tx.rows(START_ATTEMPT, {
        ...attempt,
        ticketHash,
        expiresInSeconds,
      });
    });
    try {
      return (await rows).length ? 'started' : 'ticket-used';
    } catch (error) {
      // The identity or the provider went meanwhile (a foreign key).
      if (isForeignKeyViolation(error)) return 'gone';
      throw error;
    }
  }

  /**
   * Takes the tenant's attempt of `state` for its callback, once: the
   * attempt when it was live and unused, `spent` (with where its browser
   * goes) when it was used or has expired, undefined when the tenant has
   * none.
   */
  async claimAttempt(
    tenantId: string,
    state: string,
  ): Promise<
    | LinkAttempt
    | { spent: true; returnUrl: string; accountProviderId: string }
    | undefined
  > {
    const [row] = await this.database.primary.rows(CLAIM_ATTEMPT, {
      tenantId,
      state,
    });
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

  /**
   * Keeps the account the callback of `state` would record until its
   * identity confirms it with the code of `codeHash`; false when the
   * attempt went meanwhile (its identity or provider deleted).
   */
  async awaitConfirmation(
    tenantId: string,
    state: string,
    account: NewAccount,
    codeHash: string,
    expiresInSeconds: number,
  ): Promise<boolean> {
    const rows = await this.database.primary.rows(AWAIT_CONFIRMATION, {
      tenantId,
      state,
      account: JSON.stringify(account),
      codeHash,
      expiresInSeconds,
    });
    return rows.length > 0;
  }

  /**
   * Spends the tenant's code of `codeHash` and answers the link it
   * confirms (live: false when the code had expired); undefined when the
   * tenant has no such unspent code.
   */
  async takeConfirmation(
    tenantId: string,
    codeHash: string,
  ): Promise<PendingLink | undefined> {
    const [row] = await this.database.primary.rows(TAKE_CONFIRMATION, {
      tenantId,
      codeHash,
    });
    if (!row?.account) return undefined;
    return {
      identityId: row.identityId,
      account: row.account as unknown as NewAccount,
      live: row.live,
    };
  }
}
