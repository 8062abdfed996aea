import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { sql } from 'kysely';
import { builder, exists, onTenantKey, statement } from '../database/sql';
import {
  IDENTITY_SELECTION,
  identityOf,
} from '../identity/identity.repository';
import type { IdentityRecord } from '../identity/identity.record';
import { IDENTITY_MATCHES, IdentityMatch, IssuerRow } from './token-issuer';

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

/** Whether the identity of `tenant`, `identity` holds one of the tenant's admin roles. */
const holdsAdminRole = (
  tenant: 'i.tenant_id' | 't.tenant_id',
  identity: 'i.identity_id' | 't.identity_id',
) =>
  builder
    .selectFrom('role_assignment as ra')
    .innerJoin('tenant as tn', 'tn.id', 'ra.tenant_id')
    .select(sql.lit(1).as('one'))
    .where('ra.tenant_id', '=', sql.ref<string>(tenant))
    .where('ra.identity_id', '=', sql.ref<string>(identity))
    .where((eb) => eb('ra.role_name', '=', eb.fn.any('tn.admin_roles')));

const TOKEN_CALLER = statement((p: { tokenHash: string }) =>
  builder
    .selectFrom('token as t')
    .leftJoin('identity as i', (join) =>
      onTenantKey(join, 'i', 't', 'identity_id'),
    )
    .select((eb) => [
      't.id as tokenId',
      't.tenant_id as tenantId',
      't.type as type',
      't.account_id as accountId',
      't.app_id as appId',
      't.scopes as scopes',
      't.expires_at as expiresAt',
      't.revoked_at as revokedAt',
      't.last_used_at as lastUsedAt',
      exists(eb, holdsAdminRole('t.tenant_id', 't.identity_id')).as('isAdmin'),
      ...IDENTITY_SELECTION,
    ])
    .where('t.token_hash', '=', p.tokenHash),
);

/** A token's last use, now, unless another instance wrote it within the minute. */
const TOUCH_TOKEN = statement((p: { tokenId: string }) =>
  builder
    .updateTable('token')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', sql<string>`${p.tokenId}::uuid`)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`),
      ]),
    ),
);

interface FactsParams {
  tenantId: string;
  targetId: string;
  callerId: string | null;
}

const ACCESS_FACTS = statement((p: FactsParams) =>
  builder
    .selectFrom(builder.selectNoFrom(sql.lit(1).as('x')).as('one'))
    .leftJoin('identity as i', (join) =>
      join
        .on('i.tenant_id', '=', p.tenantId)
        .on('i.identity_id', '=', p.targetId),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('identity as o')
          .select('o.identity_id')
          .where('i.identity_id', 'is', null)
          .where('o.tenant_id', '=', p.tenantId)
          // old_identity_ids <> '{}' is the predicate of its partial index.
          .where('o.old_identity_ids', '<>', sql<string[]>`'{}'`)
          .where(
            'o.old_identity_ids',
            '@>',
            sql<string[]>`ARRAY[${p.targetId}]::text[]`,
          )
          .limit(1)
          .as('m'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      ...IDENTITY_SELECTION,
      exists(
        eb,
        eb
          .selectFrom('friendship as f')
          .select(sql.lit(1).as('one'))
          .where('f.tenant_id', '=', p.tenantId)
          .where('f.identity_id', '=', p.targetId)
          .where('f.friend_id', '=', p.callerId),
      ).as('isFriend'),
      'm.identity_id as mergedInto',
      exists(
        eb,
        eb
          .selectFrom('friendship as f')
          .select(sql.lit(1).as('one'))
          .where('f.tenant_id', '=', p.tenantId)
          .whereRef('f.identity_id', '=', 'm.identity_id')
          .where('f.friend_id', '=', p.callerId),
      ).as('mergedIntoIsFriend'),
    ]),
);

interface CallerParams {
  tenantId: string;
  subject: string;
  accountId: string | null;
  accountProvider: string | null;
}

/**
 * The identity a JWT's subject names, by each way of matching, with its
 * admin status and the account signed in with: one statement per way.
 */
const identityCaller = (match: IdentityMatch) =>
  statement((p: CallerParams) =>
    builder
      .selectFrom('identity as i')
      .select((eb) => [
        exists(eb, holdsAdminRole('i.tenant_id', 'i.identity_id')).as(
          'isAdmin',
        ),
        eb
          .selectFrom('account as a')
          .select('a.account_id')
          .whereRef('a.tenant_id', '=', 'i.tenant_id')
          .whereRef('a.identity_id', '=', 'i.identity_id')
          .$if(match === 'account', (q) =>
            q
              .where('a.account_provider_id', '=', p.accountProvider)
              .where('a.issued_user_id', '=', p.subject),
          )
          .$if(match !== 'account', (q) =>
            q.where('a.account_id', '=', p.accountId),
          )
          .as('accountId'),
        ...IDENTITY_SELECTION,
      ])
      .where('i.tenant_id', '=', p.tenantId)
      .where((eb) => {
        // ascii_lower() is the key's canonical form, the unique index's own
        // expression (migration 20261208000000_canonical_match).
        const key = (value: string) => sql<string>`ascii_lower(${value})`;
        switch (match) {
          case 'identityId':
            return eb('i.identity_id', '=', p.subject);
          case 'externalId':
            return eb('i.external_id', '=', p.subject);
          case 'userName':
            return eb(
              eb.fn<string>('ascii_lower', ['i.user_name']),
              '=',
              key(p.subject),
            );
          case 'verifiedEmail':
            return eb.and([
              eb(
                eb.fn<string>('ascii_lower', ['i.email_address']),
                '=',
                key(p.subject),
              ),
              eb('i.email_address_verified', '=', true),
            ]);
          case 'account':
            return eb(
              'i.identity_id',
              '=',
              eb
                .selectFrom('account as a')
                .select('a.identity_id')
                .where('a.tenant_id', '=', p.tenantId)
                .where('a.account_provider_id', '=', p.accountProvider)
                .where('a.issued_user_id', '=', p.subject),
            );
        }
      })
      .limit(2),
  );
const IDENTITY_CALLER = Object.fromEntries(
  IDENTITY_MATCHES.map((match) => [match, identityCaller(match)]),
) as Record<IdentityMatch, ReturnType<typeof identityCaller>>;

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
    const [row] = await this.database.read.rows(TOKEN_CALLER, { tokenHash });
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
    await this.database.aside.rows(TOUCH_TOKEN, { tokenId });
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
    const [row] = await this.database.read.rows(ACCESS_FACTS, {
      tenantId,
      targetId,
      callerId,
    });
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
    const tenant = await this.database.models.tenant.findUnique({
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
    const rows = await this.database.read.rows(
      IDENTITY_CALLER[match.identityMatch],
      {
        tenantId,
        subject,
        accountId,
        accountProvider: match.accountProvider,
      },
    );
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
