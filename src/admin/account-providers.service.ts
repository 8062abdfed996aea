import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import {
  EgressPolicy,
  egressFieldErrors,
} from '../common/validation/egress-policy';
import {
  PreconditionFailed,
  ProviderNotFound,
  SettingConflict,
} from '../common/errors';
import { ifMatchAllows } from '../common/http/if-match';
import type { Collection, Page } from '../common/pagination';
import { SecretBox, SecretUnreadable } from '../common/secrets/secret-box';
import {
  linkUrls,
  providerEntry,
  SECRET_NEEDED_AGAIN,
  secretContext,
} from '../tenants/client-secrets';
import type { FieldError } from '../common/validation/field-errors';
import type { LinkRow, ProviderRow } from '../tenants/tenant-data';
import { linkRow } from '../tenants/tenant-file.validator';
import type {
  AccountProviderEntry,
  AccountProviderSettings,
} from '../tenants/tenant-file.dto';
import {
  AccountProvidersRepository,
  type ProviderRefusal,
  type ProviderSettings,
  type SecretChange,
} from './account-providers.repository';
import { invalid, invalidFields, pageByPosition, tagOf } from './admin-rules';

/** Providers are listed in their order: the order accounts are grouped in. */
export const PROVIDERS_ORDER = ['position'] as const;

/** A provider as the admin API and the command line show it: nulls left out, no secret. */
export type ProviderResponse = Pick<
  ProviderRow,
  'accountProviderId' | 'signInUrl' | 'allowsMultipleAccounts'
> & {
  displayName?: string;
  providerImageUrl?: string;
  link?: LinkRow & { clientSecretSetAt?: string };
};

export const providerResponse = (row: ProviderRow) =>
  providerEntry(row) as ProviderResponse;

/**
 * The settings to store; 400 naming what breaks the link settings' rules,
 * or an address of theirs the tenant may not reach (`allowPrivate`).
 */
function settingsOf(
  body: AccountProviderSettings,
  allowPrivate: boolean,
): ProviderSettings {
  const errors: FieldError[] = egressFieldErrors(
    allowPrivate,
    linkUrls(body.link, 'link.'),
  );
  const link = linkRow(body.link, (field, message) =>
    errors.push({ field: `link.${field}`, message }),
  );
  if (errors.length) throw invalidFields(errors);
  return {
    displayName: body.displayName ?? null,
    providerImageUrl: body.providerImageUrl ?? null,
    signInUrl: body.signInUrl,
    allowsMultipleAccounts: body.allowsMultipleAccounts ?? false,
    link,
  };
}

const listed = (names: string[], more: boolean) =>
  names.map((n) => `"${n}"`).join(', ') + (more ? ', …' : '');

/** The answer to a refused change of `id`. */
function refusal(id: string, refused: ProviderRefusal): Error {
  switch (refused.refused) {
    case 'stale':
      return new PreconditionFailed('the current ETag of the provider');
    case 'full':
      return invalid(
        'accountProviderId',
        `is one more than the ${refused.max} account providers a tenant may have`,
      );
    case 'exists':
      return new SettingConflict(
        'provider-exists',
        `The tenant already has an account provider "${id}"; PUT changes it.`,
      );
    case 'multiple-accounts':
      return new SettingConflict(
        'multiple-accounts',
        `Identities have several accounts at "${id}" (${listed(refused.identities, refused.identities.length === 10)}); unlink all but one of each first.`,
      );
    case 'issuers':
      return new SettingConflict(
        'provider-in-use',
        `The token issuers ${listed(refused.issuers, false)} link their accounts to "${id}"; change or remove them first.`,
      );
    case 'secret-needed-again':
      return invalid('link.clientSecret', SECRET_NEEDED_AGAIN);
    case 'accounts':
      return new SettingConflict(
        'provider-in-use',
        `${refused.accounts} ${refused.accounts === 1 ? 'account is' : 'accounts are'} at "${id}"; DELETE with ?deleteAccounts=true removes ${refused.accounts === 1 ? 'it' : 'them'} with the provider (the command line: --delete-accounts).`,
      );
  }
}

const isRefusal = (value: object): value is ProviderRefusal =>
  'refused' in value;

/**
 * The tenant's account providers, one at a time (docs/api.md,
 * administration), for the admin API and the command line alike.
 */
@Injectable()
export class AccountProvidersService {
  constructor(
    private readonly providers: AccountProvidersRepository,
    private readonly secrets: SecretBox,
    config: AppConfig,
  ) {
    this.egress = new EgressPolicy(config);
    this.maxProviders = config.quotas.providers;
  }

  private readonly egress: EgressPolicy;
  private readonly maxProviders: number;

  /** The secret a body gives, sealed for this provider; given: false when it gives none. */
  private sealedSecret(
    tenantId: string,
    id: string,
    body: AccountProviderSettings,
  ): SecretChange {
    const given = body.link?.clientSecret;
    if (given === undefined) return { sealed: null, given: false };
    return {
      sealed:
        given === null
          ? null
          : this.secrets.seal(given, secretContext(tenantId, id)),
      given: true,
    };
  }

  async listProviders(
    tenantId: string,
    page: Page,
  ): Promise<Collection<ProviderResponse[]>> {
    return pageByPosition(
      page,
      (after, limit) => this.providers.findProviders(tenantId, after, limit),
      providerResponse,
    );
  }

  async provider(tenantId: string, id: string): Promise<ProviderResponse> {
    const row = await this.providers.findProvider(tenantId, id);
    if (!row) throw new ProviderNotFound(id);
    return providerResponse(row);
  }

  async createProvider(
    tenantId: string,
    body: AccountProviderEntry,
    actor: string,
  ): Promise<ProviderResponse> {
    const id = body.accountProviderId;
    const settings = settingsOf(body, this.egress.allowsPrivate(tenantId));
    const row = await this.providers.createProvider(
      tenantId,
      id,
      settings,
      this.sealedSecret(tenantId, id, body).sealed,
      actor,
      this.maxProviders,
    );
    if (isRefusal(row)) throw refusal(id, row);
    return providerResponse(row);
  }

  /** Replaces the provider's settings; 412 when If-Match names others. */
  async replaceProvider(
    tenantId: string,
    id: string,
    body: AccountProviderSettings & { accountProviderId?: string },
    ifMatch: string | undefined,
    actor: string,
  ): Promise<ProviderResponse> {
    if (body.accountProviderId !== undefined && body.accountProviderId !== id)
      throw invalid(
        'accountProviderId',
        `must be "${id}": a provider's id does not change`,
      );
    const settings = settingsOf(body, this.egress.allowsPrivate(tenantId));
    const row = await this.providers.updateProvider(
      tenantId,
      id,
      settings,
      this.sealedSecret(tenantId, id, body),
      (current) => ifMatchAllows(ifMatch, tagOf(providerResponse(current))),
      actor,
    );
    if (!row) throw new ProviderNotFound(id);
    if (isRefusal(row)) throw refusal(id, row);
    return providerResponse(row);
  }

  /**
   * Seals every stored client secret that another key sealed under the
   * current one (the command line's `secret-keys rotate`); the providers,
   * `<tenant>/<provider>`, whose secret no key of the service opens.
   */
  async resealSecrets(): Promise<{ resealed: number; unreadable: string[] }> {
    const current = this.secrets.currentKeyId;
    let resealed = 0;
    const unreadable: string[] = [];
    for (const row of await this.providers.findSealedSecrets()) {
      if (this.secrets.keyIdOf(row.sealed) === current) continue;
      const context = secretContext(row.tenantId, row.accountProviderId);
      let secret: string;
      try {
        secret = this.secrets.open(row.sealed, context);
      } catch (error) {
        if (!(error instanceof SecretUnreadable)) throw error;
        unreadable.push(`${row.tenantId}/${row.accountProviderId}`);
        continue;
      }
      if (
        await this.providers.replaceSealedSecret(
          row,
          this.secrets.seal(secret, context),
        )
      )
        resealed++;
    }
    return { resealed, unreadable };
  }

  /** Removes the provider, with its accounts when asked; how many went. */
  async removeProvider(
    tenantId: string,
    id: string,
    deleteAccounts: boolean,
    ifMatch: string | undefined,
    actor: string,
  ): Promise<number> {
    const result = await this.providers.removeProvider(
      tenantId,
      id,
      (current) => ifMatchAllows(ifMatch, tagOf(providerResponse(current))),
      deleteAccounts,
      actor,
    );
    if (!result) throw new ProviderNotFound(id);
    if (isRefusal(result)) throw refusal(id, result);
    return result.removedAccounts;
  }
}
