import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { sql } from 'kysely';
import { builder, statement } from '../database/sql';
import { Prisma } from '../generated/prisma/client';
import { appendEvents } from '../events/events.repository';
import { secretWrite } from '../tenants/client-secrets';
import type { LinkRow, ProviderRow } from '../tenants/tenant-data';
import type { Transaction } from '../database/database';
import { afterPosition, SettingsRows } from './settings-rows.repository';

export type ProviderSettings = Omit<
  ProviderRow,
  'accountProviderId' | 'position' | 'clientSecretSetAt'
>;

/**
 * What a change does to the client secret (client-secrets.ts): the given
 * one, sealed, or null to remove it; left out, the one it has stays.
 */
export type SecretChange = { sealed: string | null; given: boolean };

/** Why a change of a provider was not made; the service says it. */
export type ProviderRefusal =
  | { refused: 'stale' }
  | { refused: 'exists' }
  | { refused: 'full'; max: number }
  | { refused: 'multiple-accounts'; identities: string[] }
  | { refused: 'issuers'; issuers: string[] }
  | { refused: 'accounts'; accounts: number }
  | { refused: 'secret-needed-again' };

const COLUMNS = {
  accountProviderId: true,
  position: true,
  displayName: true,
  providerImageUrl: true,
  signInUrl: true,
  allowsMultipleAccounts: true,
  link: true,
  clientSecretSetAt: true,
} as const;

/** Link settings as the client stores them: SQL NULL for none. */
const storedLink = (link: LinkRow | null) =>
  link === null ? Prisma.DbNull : ({ ...link } as Prisma.InputJsonObject);

/** The columns of a client secret: sealed, and when; both null for none. */
const secretColumns = (sealed: string | null, at: Date) => ({
  clientSecret: sealed,
  clientSecretSetAt: sealed === null ? null : at,
});

/** A stored client secret, sealed, and whose it is. */
export interface SealedSecret {
  tenantId: string;
  accountProviderId: string;
  sealed: string;
}

const SEALED_SECRETS = statement((_p: Record<string, never>) =>
  builder
    .selectFrom('account_provider')
    .select([
      'tenant_id as tenantId',
      'account_provider_id as accountProviderId',
      sql<string>`client_secret`.as('sealed'),
    ])
    .where('client_secret', 'is not', null)
    .orderBy('tenant_id')
    .orderBy('account_provider_id'),
);

/** The same secret sealed anew: its time of setting stays. */
const RESEAL_SECRET = statement((p: SealedSecret & { resealed: string }) =>
  builder
    .updateTable('account_provider')
    .set({ client_secret: p.resealed })
    .where('tenant_id', '=', p.tenantId)
    .where('account_provider_id', '=', p.accountProviderId)
    .where('client_secret', '=', p.sealed)
    .returning('account_provider_id'),
);

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
      'client_secret_set_at as clientSecretSetAt',
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
  const [row] = await tx.rows(LOCK_PROVIDER, { tenantId, id });
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
    return (await this.database.models.accountProvider.findMany({
      ...afterPosition(tenantId, after, limit),
      select: COLUMNS,
    })) as ProviderRow[];
  }

  async findProvider(
    tenantId: string,
    id: string,
  ): Promise<ProviderRow | null> {
    return (await this.database.models.accountProvider.findUnique({
      where: {
        tenantId_accountProviderId: { tenantId, accountProviderId: id },
      },
      select: COLUMNS,
    })) as ProviderRow | null;
  }

  /** Every tenant's stored client secrets, sealed (the command line's rotation). */
  async findSealedSecrets(): Promise<SealedSecret[]> {
    return this.database.primary.rows(SEALED_SECRETS, {});
  }

  /**
   * Puts `sealed` in place of the secret `row` read, unless it changed
   * since (a new secret written meanwhile wins); whether it did.
   */
  async replaceSealedSecret(
    row: SealedSecret,
    sealed: string,
  ): Promise<boolean> {
    const changed = await this.database.primary.rows(RESEAL_SECRET, {
      ...row,
      resealed: sealed,
    });
    return changed.length > 0;
  }

  /**
   * Adds the provider after the others, with the client secret given,
   * sealed; refused as 'full' when the tenant has `max` already, counted
   * behind the tenant's settings lock so that concurrent requests cannot
   * each count the others out.
   */
  createProvider(
    tenantId: string,
    id: string,
    settings: ProviderSettings,
    sealed: string | null,
    actor: string,
    max: number,
  ): Promise<ProviderRow | ProviderRefusal> {
    return this.providers.create(
      tenantId,
      id,
      actor,
      (tx) => this.insertProvider(tx, tenantId, id, settings, sealed),
      async (tx) =>
        (await tx.models.accountProvider.count({ where: { tenantId } })) >= max
          ? { refused: 'full' as const, max }
          : undefined,
    );
  }

  private async insertProvider(
    tx: Transaction,
    tenantId: string,
    id: string,
    settings: ProviderSettings,
    sealed: string | null,
  ): Promise<ProviderRow> {
    const { _max } = await tx.models.accountProvider.aggregate({
      where: { tenantId },
      _max: { position: true },
    });
    return (await tx.models.accountProvider.create({
      data: {
        tenantId,
        accountProviderId: id,
        position: (_max.position ?? -1) + 1,
        ...settings,
        link: storedLink(settings.link),
        ...secretColumns(sealed, new Date()),
      },
      select: COLUMNS,
    })) as ProviderRow;
  }

  /**
   * Replaces the provider's settings, when `check` passes on the current
   * ones; null when there is no such provider.
   */
  updateProvider(
    tenantId: string,
    id: string,
    settings: ProviderSettings,
    secret: SecretChange,
    check: (current: ProviderRow) => boolean,
    actor: string,
  ): Promise<ProviderRow | ProviderRefusal | null> {
    const setAt = new Date();
    const secretWriteOn = (current: ProviderRow) =>
      secretWrite(
        { link: current.link, hasSecret: current.clientSecretSetAt !== null },
        settings.link,
        secret.given ? secret.sealed : undefined,
      );
    let written: ReturnType<typeof secretColumns> | undefined;
    let linkChanged = false;
    return this.providers.replace(
      tenantId,
      id,
      check,
      actor,
      (current) => {
        linkChanged =
          JSON.stringify(current.link) !== JSON.stringify(settings.link);
        const write = secretWriteOn(current);
        written =
          write === 'set' || write === 'remove'
            ? secretColumns(write === 'set' ? secret.sealed : null, setAt)
            : undefined;
        return {
          ...settings,
          ...(written && { clientSecretSetAt: written.clientSecretSetAt }),
        };
      },
      async (tx) => {
        await tx.models.accountProvider.update({
          where: {
            tenantId_accountProviderId: { tenantId, accountProviderId: id },
          },
          data: { ...settings, link: storedLink(settings.link), ...written },
        });
        // Links under way, and accounts waiting for their confirmation,
        // came from the settings before: none is recorded under new ones.
        if (linkChanged)
          await tx.models.linkAttempt.deleteMany({
            where: { tenantId, accountProviderId: id },
          });
      },
      async (tx, current) => {
        if (secretWriteOn(current) === undefined)
          return { refused: 'secret-needed-again' as const };
        if (!current.allowsMultipleAccounts || settings.allowsMultipleAccounts)
          return undefined;
        const several = await tx.models.account.groupBy({
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
          const removed = await tx.rows(REMOVE_ACCOUNTS, {
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
        await tx.models.accountProvider.delete({
          where: {
            tenantId_accountProviderId: { tenantId, accountProviderId: id },
          },
        });
        return { removedAccounts };
      },
      async (tx) => {
        const issuers = await tx.models.tokenIssuer.findMany({
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
        const accounts = await tx.models.account.count({
          where: { tenantId, accountProviderId: id },
        });
        return accounts
          ? { refused: 'accounts' as const, accounts }
          : undefined;
      },
    );
  }
}
