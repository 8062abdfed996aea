import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { builder, rowsIn, statement } from '../database/sql';
import { Prisma } from '../generated/prisma/client';
import { appendEvents } from '../events/events.repository';
import type { LinkRow, ProviderRow } from '../tenants/tenant-data';
import type { Transaction } from '../database/tenant-lock';
import { afterPosition, SettingsRows } from './settings-rows.repository';

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

async function lockProvider(
  tx: Transaction,
  tenantId: string,
  id: string,
): Promise<ProviderRow | null> {
  const [row] = await rowsIn(tx, LOCK_PROVIDER, { tenantId, id });
  // The link settings were validated when they were written.
  return row ? { ...row, link: row.link as LinkRow | null } : null;
}

/** A tenant's account providers; each change as SettingsRows makes it. */
@Injectable()
export class AccountProvidersRepository {
  private readonly providers: SettingsRows<ProviderRow>;

  constructor(private readonly database: Database) {
    this.providers = new SettingsRows(database, 'provider', lockProvider);
  }

  /** The providers in their order, after position `after`. */
  async findProviders(
    tenantId: string,
    after: number | undefined,
    limit: number,
  ): Promise<ProviderRow[]> {
    return (await this.database.prisma.accountProvider.findMany({
      ...afterPosition(tenantId, after, limit),
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
    return this.providers.create(tenantId, id, actor, async (tx) => {
      const { _max } = await tx.accountProvider.aggregate({
        where: { tenantId },
        _max: { position: true },
      });
      return (await tx.accountProvider.create({
        data: {
          tenantId,
          accountProviderId: id,
          position: (_max.position ?? -1) + 1,
          ...settings,
          link: storedLink(settings.link),
        },
        select: COLUMNS,
      })) as ProviderRow;
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
    return this.providers.replace(
      tenantId,
      id,
      check,
      actor,
      settings,
      (tx) =>
        tx.accountProvider.update({
          where: {
            tenantId_accountProviderId: { tenantId, accountProviderId: id },
          },
          data: { ...settings, link: storedLink(settings.link) },
        }),
      async (tx, current) => {
        if (!current.allowsMultipleAccounts || settings.allowsMultipleAccounts)
          return undefined;
        const several = await tx.account.groupBy({
          by: ['identityId'],
          where: { tenantId, accountProviderId: id },
          having: { identityId: { _count: { gt: 1 } } },
          orderBy: { identityId: 'asc' },
          take: 10,
        });
        return several.length
          ? {
              refused: 'multiple-accounts' as const,
              identities: several.map((s) => s.identityId),
            }
          : undefined;
      },
    );
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
    return this.providers.remove(
      tenantId,
      id,
      check,
      actor,
      async (tx) => {
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
        }
        await tx.accountProvider.delete({
          where: {
            tenantId_accountProviderId: { tenantId, accountProviderId: id },
          },
        });
        return { removedAccounts };
      },
      async (tx) => {
        const issuers = await tx.tokenIssuer.findMany({
          where: { tenantId, accountProvider: id },
          orderBy: { position: 'asc' },
          select: { issuer: true },
        });
        if (issuers.length)
          return {
            refused: 'issuers' as const,
            issuers: issuers.map((i) => i.issuer),
          };
        if (withAccounts) return undefined;
        const accounts = await tx.account.count({
          where: { tenantId, accountProviderId: id },
        });
        return accounts
          ? { refused: 'accounts' as const, accounts }
          : undefined;
      },
    );
  }
}
