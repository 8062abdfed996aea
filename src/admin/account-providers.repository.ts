import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { builder, rowsIn, statement } from '../database/sql';
import { Prisma } from '../generated/prisma/client';
import { appendAdminEvent, appendEvents } from '../events/events.repository';
import type { LinkRow, ProviderRow } from '../tenants/tenant-data';
import { lockTenantSettings, type Transaction } from '../database/tenant-lock';

export type ProviderSettings = Omit<
  ProviderRow,
  'accountProviderId' | 'position'
>;

/** Why a change of a provider was not made; the service says it. */
export type ProviderRefusal =
  | { refused: 'stale' }
  | { refused: 'exists' }
  | { refused: 'multiple-accounts'; identities: string[] }
  | { refused: 'issuers'; issuers: string[] }
  | { refused: 'accounts'; accounts: number };

const COLUMNS = {
  accountProviderId: true,
  position: true,
  displayName: true,
  providerImageUrl: true,
  signInUrl: true,
  allowsMultipleAccounts: true,
  link: true,
} as const;

/** Link settings as the client stores them: SQL NULL for none. */
const storedLink = (link: LinkRow | null) =>
  link === null ? Prisma.DbNull : ({ ...link } as Prisma.InputJsonObject);

/** A provider as the audit log holds it: its settings by their API names. */
const described = ({ position: _p, ...row }: ProviderRow) => row;

/**
 * A tenant's account providers, changed one at a time, each change with its
 * audit log entry in one transaction, after the tenant's settings lock.
 */
/** A provider of the tenant, its row locked for the transaction. */
const LOCK_PROVIDER = statement((p: { tenantId: string; id: string }) =>
  builder
    .selectFrom('account_provider')
    .select([
      'account_provider_id as accountProviderId',
      'position',
      'display_name as displayName',
      'provider_image_url as providerImageUrl',
      'sign_in_url as signInUrl',
      'allows_multiple_accounts as allowsMultipleAccounts',
      'link',
    ])
    .where('tenant_id', '=', p.tenantId)
    .where('account_provider_id', '=', p.id)
    .forUpdate(),
);

/** Removes the accounts at a provider; the identities that had one. */
const REMOVE_ACCOUNTS = statement((p: { tenantId: string; id: string }) =>
  builder
    .deleteFrom('account')
    .where('tenant_id', '=', p.tenantId)
    .where('account_provider_id', '=', p.id)
    .returning('identity_id as identityId'),
);

@Injectable()
export class AccountProvidersRepository {
  constructor(private readonly database: Database) {}

  /** The providers in their order, after position `after`. */
  async findProviders(
    tenantId: string,
    after: number | undefined,
    limit: number,
  ): Promise<ProviderRow[]> {
    return (await this.database.prisma.accountProvider.findMany({
      where: {
        tenantId,
        ...(after !== undefined && { position: { gt: after } }),
      },
      orderBy: { position: 'asc' },
      take: limit,
      select: COLUMNS,
    })) as ProviderRow[];
  }

  async findProvider(
    tenantId: string,
    id: string,
  ): Promise<ProviderRow | null> {
    return (await this.database.prisma.accountProvider.findUnique({
      where: {
        tenantId_accountProviderId: { tenantId, accountProviderId: id },
      },
      select: COLUMNS,
    })) as ProviderRow | null;
  }

  /** Adds the provider after the others. */
  createProvider(
    tenantId: string,
    id: string,
    settings: ProviderSettings,
    actor: string,
  ): Promise<ProviderRow | ProviderRefusal> {
    return this.database.transaction(async (tx) => {
      await lockTenantSettings(tx, tenantId);
      if (await this.current(tx, tenantId, id)) return { refused: 'exists' };
      const { _max } = await tx.accountProvider.aggregate({
        where: { tenantId },
        _max: { position: true },
      });
      const row = (await tx.accountProvider.create({
        data: {
          tenantId,
          accountProviderId: id,
          position: (_max.position ?? -1) + 1,
          ...settings,
          link: storedLink(settings.link),
        },
        select: COLUMNS,
      })) as ProviderRow;
      await appendAdminEvent(tx, tenantId, {
        actor,
        action: 'provider.created',
        target: `provider:${id}`,
        after: described(row),
      });
      return row;
    });
  }

  /**
   * Replaces the provider's settings, when `check` passes on the current
   * ones; null when there is no such provider.
   */
  updateProvider(
    tenantId: string,
    id: string,
    settings: ProviderSettings,
    check: (current: ProviderRow) => boolean,
    actor: string,
  ): Promise<ProviderRow | ProviderRefusal | null> {
    return this.database.transaction(async (tx) => {
      await lockTenantSettings(tx, tenantId);
      const current = await this.current(tx, tenantId, id);
      if (!current) return null;
      if (!check(current)) return { refused: 'stale' };
      if (current.allowsMultipleAccounts && !settings.allowsMultipleAccounts) {
        const several = await tx.account.groupBy({
          by: ['identityId'],
          where: { tenantId, accountProviderId: id },
          having: { identityId: { _count: { gt: 1 } } },
          orderBy: { identityId: 'asc' },
          take: 10,
        });
        if (several.length)
          return {
            refused: 'multiple-accounts',
            identities: several.map((s) => s.identityId),
          };
      }
      const after = { ...current, ...settings };
      if (JSON.stringify(after) === JSON.stringify(current)) return current;
      await tx.accountProvider.update({
        where: {
          tenantId_accountProviderId: { tenantId, accountProviderId: id },
        },
        data: { ...settings, link: storedLink(settings.link) },
      });
      await appendAdminEvent(tx, tenantId, {
        actor,
        action: 'provider.updated',
        target: `provider:${id}`,
        before: described(current),
        after: described(after),
      });
      return after;
    });
  }

  /**
   * Removes the provider when `check` passes and no issuer links to it;
   * with its accounts (each identity's removal in the change log), or only
   * when it has none. Null when there is no such provider; otherwise the
   * number of accounts removed.
   */
  removeProvider(
    tenantId: string,
    id: string,
    check: (current: ProviderRow) => boolean,
    withAccounts: boolean,
    actor: string,
  ): Promise<{ removedAccounts: number } | ProviderRefusal | null> {
    return this.database.transaction(async (tx) => {
      await lockTenantSettings(tx, tenantId);
      const current = await this.current(tx, tenantId, id);
      if (!current) return null;
      if (!check(current)) return { refused: 'stale' };
      const issuers = await tx.tokenIssuer.findMany({
        where: { tenantId, accountProvider: id },
        orderBy: { position: 'asc' },
        select: { issuer: true },
      });
      if (issuers.length)
        return { refused: 'issuers', issuers: issuers.map((i) => i.issuer) };
      let removedAccounts = 0;
      if (withAccounts) {
        const removed = await rowsIn(tx, REMOVE_ACCOUNTS, {
          tenantId,
          id,
        });
        removedAccounts = removed.length;
        await appendEvents(
          tx,
          tenantId,
          [...new Set(removed.map((r) => r.identityId))]
            .sort()
            .map((identityId) => ({
              identityId,
              type: 'updated' as const,
              fields: ['accounts'],
            })),
        );
      } else {
        const accounts = await tx.account.count({
          where: { tenantId, accountProviderId: id },
        });
        if (accounts) return { refused: 'accounts', accounts };
      }
      await tx.accountProvider.delete({
        where: {
          tenantId_accountProviderId: { tenantId, accountProviderId: id },
        },
      });
      await appendAdminEvent(tx, tenantId, {
        actor,
        action: 'provider.deleted',
        target: `provider:${id}`,
        before: described(current),
      });
      return { removedAccounts };
    });
  }

  private async current(
    tx: Transaction,
    tenantId: string,
    id: string,
  ): Promise<ProviderRow | null> {
    const [row] = await rowsIn(tx, LOCK_PROVIDER, { tenantId, id });
    // The link settings were validated when they were written.
    return row ? { ...row, link: row.link as LinkRow | null } : null;
  }
}
