import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import {
  EgressPolicy,
  egressFieldErrors,
} from '../common/validation/egress-policy';
import { formatUtcDateTime, withoutNulls } from '../common/representation';
import { IdentityRow, TenantData } from './tenant-data';
import { TenantFileError, validateTenantFile } from './tenant-file.validator';
import {
  SecretNeededAgain,
  TenantExists,
  TenantsRepository,
} from './tenants.repository';
import { SecretBox } from '../common/secrets/secret-box';
import {
  linkUrls,
  providerEntry,
  SECRET_NEEDED_AGAIN,
  secretContext,
} from './client-secrets';

export interface ImportSummary {
  tenantId: string;
  replaced: boolean;
  identities: number;
  accounts: number;
  friendships: number;
  tokens: number;
  /** On a replace: identities of the tenant the file lacked, now deleted. */
  removedIdentities: number;
  /** On a replace: tokens not in the file that went (see ReplacePlan). */
  removedTokens: number;
  /** On a replace: tokens not in the file that are kept. */
  keptTokens: number;
}

/** What a replace will remove, told before it does. */
export interface ReplaceNotice {
  tenantId: string;
  removedIdentities: string[];
  removedTokens: number;
  keptTokens: number;
}

@Injectable()
export class TenantsService {
  constructor(
    private readonly tenants: TenantsRepository,
    private readonly secrets: SecretBox,
    private readonly config: AppConfig,
  ) {
    this.egress = new EgressPolicy(config);
  }

  private readonly egress: EgressPolicy;

  /**
   * Imports a parsed tenant file, all or nothing. Throws TenantFileError for
   * a file that breaks the format or names a tenant that exists already
   * (unless `replace`).
   */
  async importTenant(
    file: unknown,
    {
      replace = false,
      replaceTokens = false,
      beforeReplace,
    }: {
      replace?: boolean;
      /** Tokens the file does not list go too (they are kept otherwise). */
      replaceTokens?: boolean;
      /** Told what a replace will remove, before it does. */
      beforeReplace?: (notice: ReplaceNotice) => void;
    } = {},
  ): Promise<ImportSummary> {
    const data = validateTenantFile(file);
    this.checkReachable(data);
    this.checkProviderQuota(data);
    await this.checkIssuersFree(data);
    // A tenant that does not exist yet has nothing to lose: no notice.
    if (
      replace &&
      beforeReplace &&
      (await this.tenants.exists(data.tenant.id))
    ) {
      const plan = await this.tenants.replacePlan(data, replaceTokens);
      beforeReplace({
        tenantId: data.tenant.id,
        removedIdentities: plan.removedIdentities,
        removedTokens: plan.removedTokens,
        keptTokens: plan.keptTokens.length,
      });
    }
    const written = await this.writeTenant(data, replace, replaceTokens);
    return {
      tenantId: data.tenant.id,
      replaced: written.replaced,
      identities: data.identities.length,
      accounts: data.accounts.length,
      friendships: data.friendships.length / 2,
      tokens: data.tokens.length,
      removedIdentities: written.removedIdentities.length,
      removedTokens: written.removedTokens,
      keptTokens: written.keptTokens.length,
    };
  }

  /** Refuses a file whose issuers or link providers the tenant may not reach. */
  private checkReachable(data: TenantData): void {
    const reachable = egressFieldErrors(
      this.egress.allowsPrivate(data.tenant.id),
      Object.assign(
        {},
        ...data.issuers.map((issuer, i) => ({
          [`tenant.tokenIssuers[${i}].issuer`]: issuer.issuer,
          [`tenant.tokenIssuers[${i}].jwksUri`]: issuer.jwksUri ?? undefined,
        })),
        ...data.providers.map((p, i) =>
          linkUrls(p.link, `accountProviders[${i}].link.`),
        ),
      ),
    );
    if (reachable.length) throw new TenantFileError(reachable);
  }

  /** Refuses a file with more account providers than a tenant may have. */
  private checkProviderQuota(data: TenantData): void {
    const maxProviders = this.config.quotas.providers;
    if (data.providers.length > maxProviders)
      throw new TenantFileError([
        {
          field: 'accountProviders',
          message: `must have at most ${maxProviders} items (TENANT_MAX_PROVIDERS)`,
        },
      ]);
  }

  /**
   * Refuses issuers another tenant trusts with one of the same audiences: a
   * JWT must never be valid on two tenants' paths.
   */
  private async checkIssuersFree(data: TenantData): Promise<void> {
    const clashes = await this.tenants.issuerClashes(
      data.tenant.id,
      data.issuers.flatMap((i) =>
        i.audiences.map((audience) => ({ issuer: i.issuer, audience })),
      ),
    );
    if (clashes.length)
      throw new TenantFileError(
        clashes.map((c) => ({
          field: `tenant.tokenIssuers[${data.issuers.findIndex((i) => i.issuer === c.issuer)}].audiences`,
          message: `issuer "${c.issuer}" with audience "${c.audience}" is already trusted by tenant "${c.tenantId}"`,
        })),
      );
  }

  /**
   * Writes the tenant with an `imported` event for each identity and the
   * file's client secrets sealed; the repository's refusals as the file's
   * errors.
   */
  private async writeTenant(
    data: TenantData,
    replace: boolean,
    replaceTokens: boolean,
  ): ReturnType<TenantsRepository['write']> {
    try {
      return await this.tenants.write(
        data,
        replace,
        data.identities.map((identity) => ({
          identityId: identity.identityId,
          type: 'imported',
          fields: fieldsWithValue(identity),
        })),
        {
          replaceTokens,
          sealedSecrets: Object.fromEntries(
            Object.entries(data.clientSecrets).map(([id, secret]) => [
              id,
              secret === null
                ? null
                : this.secrets.seal(secret, secretContext(data.tenant.id, id)),
            ]),
          ),
        },
      );
    } catch (error) {
      if (error instanceof SecretNeededAgain)
        throw new TenantFileError([
          {
            field: `accountProviders[${data.providers.findIndex((p) => p.accountProviderId === error.accountProviderId)}].link.clientSecret`,
            message: SECRET_NEEDED_AGAIN,
          },
        ]);
      if (!(error instanceof TenantExists)) throw error;
      throw new TenantFileError([
        {
          field: 'tenant.id',
          message: `tenant "${data.tenant.id}" exists already; import with --replace to replace it`,
        },
      ]);
    }
  }

  /** The tenant in the import format, tokens left out; undefined when unknown. */
  async exportTenant(tenantId: string): Promise<object | undefined> {
    const data = await this.tenants.read(tenantId);
    return data && toTenantFile(data);
  }

  hasTenant(tenantId: string): Promise<boolean> {
    return this.tenants.exists(tenantId);
  }

  async hasTenants(): Promise<boolean> {
    return (await this.tenants.countTenants()) > 0;
  }
}

/** The names of an imported identity's fields that hold a value. */
function fieldsWithValue(identity: IdentityRow): string[] {
  const empty = (v: unknown) =>
    v === null ||
    v === false ||
    (Array.isArray(v) && v.length === 0) ||
    (v?.constructor === Object && Object.keys(v).length === 0);
  return Object.entries(identity)
    .filter(([key, value]) => key !== 'identityId' && !empty(value))
    .map(([key]) => key);
}

const present = <T extends object>(record: T) =>
  Object.fromEntries(
    Object.entries(record).filter(
      ([, v]) =>
        v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0),
    ),
  );

function toTenantFile(
  data: Omit<TenantData, 'tokens' | 'clientSecrets'>,
): object {
  const group = <T extends { identityId: string }>(rows: T[]) => {
    const byIdentity = new Map<string, T[]>();
    for (const row of rows)
      byIdentity.set(row.identityId, [
        ...(byIdentity.get(row.identityId) ?? []),
        row,
      ]);
    return byIdentity;
  };
  const accounts = group(data.accounts);
  const friends = group(data.friendships);
  const roles = group(data.roleAssignments);
  return {
    tenant: {
      id: data.tenant.id,
      name: data.tenant.name,
      adminRoles: data.tenant.adminRoles,
      ...(data.tenant.linkReturnUrls.length > 0 && {
        linkReturnUrls: data.tenant.linkReturnUrls,
      }),
      // Null-less, not empty-less: appIdClaims [] is a setting.
      ...(data.issuers.length > 0 && {
        tokenIssuers: data.issuers.map(({ position: _p, ...i }) =>
          withoutNulls(i),
        ),
      }),
    },
    accountProviders: data.providers.map(providerEntry),
    identities: data.identities.map((identity) =>
      present({
        ...identity,
        lastLogin: identity.lastLogin && formatUtcDateTime(identity.lastLogin),
        properties: identity.properties,
        accounts: (accounts.get(identity.identityId) ?? []).map(
          ({ identityId: _id, ...a }) => present(a),
        ),
        roles: (roles.get(identity.identityId) ?? []).map((r) => r.roleName),
        friends: (friends.get(identity.identityId) ?? []).map(
          (f) => f.friendId,
        ),
      }),
    ),
  };
}
