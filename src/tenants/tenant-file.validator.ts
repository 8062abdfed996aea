import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { hashTokenSecret } from '../auth/token-secret';
import {
  parseUtcDateTime,
  RESERVED_IDENTITY_IDS,
  withPrimary,
} from '../common/validation/field-rules';
import {
  FieldError,
  findUnsafeKeys,
  MAX_JSON_DEPTH,
  toFieldErrors,
  tooDeep,
} from '../common/validation/field-errors';
import {
  IdentityEntry,
  JWT_ALGORITHMS,
  LinkSettings,
  TenantFile,
  TokenIssuerEntry,
} from './tenant-file.dto';
import {
  emptyValue,
  FIELD_NAMES,
  IDENTITY_FIELDS,
  PRIMARIES,
} from '../identity/identity-fields';
import {
  AccountRow,
  IdentityRow,
  IssuerRow,
  LinkRow,
  TenantData,
} from './tenant-data';

export class TenantFileError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.field}: ${e.message}`).join('\n'));
  }
}

/**
 * Checks a parsed import file against every rule of the format and returns
 * the rows to write. Throws TenantFileError listing every problem by path.
 */
export function validateTenantFile(raw: unknown): TenantData {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new TenantFileError([
      { field: '$', message: 'must be a JSON object' },
    ]);
  const deep = tooDeep(raw);
  if (deep !== undefined)
    throw new TenantFileError([
      {
        field: deep,
        message: `is nested more than ${MAX_JSON_DEPTH} levels deep`,
      },
    ]);
  const unsafe = findUnsafeKeys(raw);
  if (unsafe.length)
    throw new TenantFileError(
      unsafe.map((field) => ({ field, message: 'is not an allowed key' })),
    );
  const file = plainToInstance(TenantFile, raw);
  const shapeErrors = toFieldErrors(
    validateSync(file, {
      whitelist: true,
      forbidNonWhitelisted: true,
      stopAtFirstError: true,
    }),
  );
  if (shapeErrors.length) throw new TenantFileError(shapeErrors);
  const checker = new CrossChecks(file);
  const data = checker.run();
  if (checker.errors.length) throw new TenantFileError(checker.errors);
  return data;
}

class CrossChecks {
  readonly errors: FieldError[] = [];
  constructor(private readonly file: TenantFile) {}

  private fail(field: string, message: string) {
    this.errors.push({ field, message });
  }

  run(): TenantData {
    const { tenant } = this.file;
    const providers = this.providers();
    const identityIds = this.identityIds();
    const accounts = this.accounts(identityIds, providers);
    const data: TenantData = {
      tenant: {
        id: tenant.id,
        name: tenant.name,
        adminRoles: [...new Set(tenant.adminRoles ?? [])],
        linkReturnUrls: [...new Set(tenant.linkReturnUrls ?? [])],
      },
      issuers: this.issuers(providers),
      providers: [...providers.values()].map((p) => p.row),
      clientSecrets: Object.fromEntries(
        (this.file.accountProviders ?? []).flatMap((p) =>
          p.link?.clientSecret === undefined
            ? []
            : [[p.accountProviderId, p.link.clientSecret]],
        ),
      ),
      identities: (this.file.identities ?? []).map((record, i) =>
        identityRow(record, identityIds[i]),
      ),
      accounts,
      friendships: this.friendships(identityIds),
      roles: [],
      roleAssignments: [],
      tokens: this.tokens(identityIds, accounts),
    };
    const roles = new Set<string>();
    (this.file.identities ?? []).forEach((record, i) => {
      for (const roleName of new Set(record.roles ?? [])) {
        roles.add(roleName);
        data.roleAssignments.push({ identityId: identityIds[i], roleName });
      }
    });
    data.roles = [...roles];
    return data;
  }

  private issuers(providers: ReadonlyMap<string, unknown>): IssuerRow[] {
    const seen = new Set<string>();
    return (this.file.tenant.tokenIssuers ?? []).map((entry, position) => {
      const at = `tenant.tokenIssuers[${position}]`;
      if (seen.has(entry.issuer))
        this.fail(`${at}.issuer`, `duplicate issuer "${entry.issuer}"`);
      seen.add(entry.issuer);
      return issuerRow(entry, position, providers, (field, message) =>
        this.fail(`${at}.${field}`, message),
      );
    });
  }

  private providers() {
    const providers = new Map<
      string,
      { row: TenantData['providers'][number] }
    >();
    (this.file.accountProviders ?? []).forEach((p, position) => {
      if (providers.has(p.accountProviderId))
        return this.fail(
          `accountProviders[${position}].accountProviderId`,
          `duplicate provider "${p.accountProviderId}"`,
        );
      providers.set(p.accountProviderId, {
        row: {
          accountProviderId: p.accountProviderId,
          position,
          displayName: p.displayName ?? null,
          providerImageUrl: p.providerImageUrl ?? null,
          signInUrl: p.signInUrl,
          allowsMultipleAccounts: p.allowsMultipleAccounts ?? false,
          link: linkRow(p.link, (field, message) =>
            this.fail(`accountProviders[${position}].link.${field}`, message),
          ),
          // Set as the write finds it (TenantsRepository.write).
          clientSecretSetAt: null,
        },
      });
    });
    return providers;
  }

  private identityIds(): string[] {
    const seen = new Set<string>();
    const userNames = new Set<string>();
    return (this.file.identities ?? []).map((record, i) => {
      // Unique in the tenant with A–Z as a–z and every other character as
      // written, as the database's index has it (ascii_lower).
      const userName =
        typeof record.userName === 'string' &&
        record.userName.replace(/[A-Z]/g, (c) => c.toLowerCase());
      if (userName && userNames.has(userName))
        this.fail(
          `identities[${i}].userName`,
          `duplicate userName "${record.userName}" (A–Z compared as a–z)`,
        );
      if (userName) userNames.add(userName);
      const id = record.identityId ?? randomUUID();
      const field = `identities[${i}].identityId`;
      if (RESERVED_IDENTITY_IDS.includes(id))
        this.fail(field, `"${id}" is reserved`);
      else if (seen.has(id)) this.fail(field, `duplicate identity "${id}"`);
      seen.add(id);
      return id;
    });
  }

  private accounts(
    identityIds: string[],
    providers: Map<string, { row: { allowsMultipleAccounts: boolean } }>,
  ) {
    const rows: AccountRow[] = [];
    const accountIds = new Set<string>();
    const issued = new Set<string>();
    (this.file.identities ?? []).forEach((identity, i) => {
      const perProvider = new Set<string>();
      (identity.accounts ?? []).forEach((account, j) => {
        const at = `identities[${i}].accounts[${j}]`;
        const provider = providers.get(account.accountProviderId);
        const accountId = account.accountId ?? randomUUID();
        const issuedKey = JSON.stringify([
          account.accountProviderId,
          account.issuedUserId,
        ]);
        if (!provider)
          return this.fail(
            `${at}.accountProviderId`,
            `unknown provider "${account.accountProviderId}"`,
          );
        if (accountIds.has(accountId))
          this.fail(`${at}.accountId`, `duplicate account "${accountId}"`);
        if (issued.has(issuedKey))
          this.fail(
            `${at}.issuedUserId`,
            `"${account.issuedUserId}" is already used at provider "${account.accountProviderId}"`,
          );
        if (
          perProvider.has(account.accountProviderId) &&
          !provider.row.allowsMultipleAccounts
        )
          this.fail(
            `${at}.accountProviderId`,
            `provider "${account.accountProviderId}" allows one account per identity`,
          );
        accountIds.add(accountId);
        issued.add(issuedKey);
        perProvider.add(account.accountProviderId);
        rows.push({
          accountId,
          identityId: identityIds[i],
          accountProviderId: account.accountProviderId,
          issuedUserId: account.issuedUserId,
          accountPrivatePersonalIdentifier:
            account.accountPrivatePersonalIdentifier ?? null,
          displayName: account.displayName ?? null,
          emailAddress: account.emailAddress ?? null,
          accountProfileUrl: account.accountProfileUrl ?? null,
          pictureUrl: account.pictureUrl ?? null,
        });
      });
    });
    return rows;
  }

  private friendships(identityIds: string[]) {
    const known = new Set(identityIds);
    const pairs = new Map<string, { identityId: string; friendId: string }>();
    const add = (identityId: string, friendId: string) =>
      pairs.set(JSON.stringify([identityId, friendId]), {
        identityId,
        friendId,
      });
    (this.file.identities ?? []).forEach((identity, i) => {
      (identity.friends ?? []).forEach((friendId, j) => {
        const field = `identities[${i}].friends[${j}]`;
        if (!known.has(friendId))
          return this.fail(field, `unknown identity "${friendId}"`);
        if (friendId === identityIds[i])
          return this.fail(field, 'an identity cannot be its own friend');
        add(identityIds[i], friendId);
        add(friendId, identityIds[i]);
      });
    });
    return [...pairs.values()];
  }

  private tokens(identityIds: string[], accounts: AccountRow[]) {
    const known = new Set(identityIds);
    const accountOwner = new Map(
      accounts.map((a) => [a.accountId, a.identityId]),
    );
    const secrets = new Set<string>();
    return (this.file.tokens ?? []).map((token, i) => {
      const at = `tokens[${i}]`;
      if (secrets.has(token.token)) this.fail(`${at}.token`, 'duplicate token');
      secrets.add(token.token);
      if (token.type === 'access') {
        if (token.identityId === undefined)
          this.fail(`${at}.identityId`, 'is required for an access token');
        else if (!known.has(token.identityId))
          this.fail(
            `${at}.identityId`,
            `unknown identity "${token.identityId}"`,
          );
        if (token.appId !== undefined)
          this.fail(`${at}.appId`, 'is only for app tokens');
        if (
          token.accountId !== undefined &&
          accountOwner.get(token.accountId) !== token.identityId
        )
          this.fail(
            `${at}.accountId`,
            `"${token.accountId}" is not an account of identity "${token.identityId}"`,
          );
      } else {
        if (token.appId === undefined)
          this.fail(`${at}.appId`, 'is required for an app token');
        if (token.identityId !== undefined)
          this.fail(`${at}.identityId`, 'is only for access tokens');
        if (token.accountId !== undefined)
          this.fail(`${at}.accountId`, 'is only for access tokens');
      }
      return {
        id: randomUUID(),
        tokenHash: hashTokenSecret(token.token),
        type: token.type,
        identityId: token.identityId ?? null,
        accountId: token.accountId ?? null,
        appId: token.appId ?? null,
        scopes: [...new Set(token.scopes ?? [])],
        expiresAt:
          token.expiresAt === undefined ? null : new Date(token.expiresAt),
      };
    });
  }
}

/**
 * A token issuer of the file or of the admin API as the row to write, its
 * defaults filled in; `fail` hears what breaks the rules that span its keys
 * and the tenant's providers (by key name).
 */
export function issuerRow(
  entry: TokenIssuerEntry,
  position: number,
  providers: { has(accountProviderId: string): boolean },
  fail: (field: string, message: string) => void,
): IssuerRow {
  const match = entry.identityMatch ?? 'identityId';
  if (entry.accountProvider !== undefined) {
    if (!providers.has(entry.accountProvider))
      fail('accountProvider', `unknown provider "${entry.accountProvider}"`);
    if (entry.provisioning !== 'jit' && match !== 'account')
      fail(
        'accountProvider',
        'is only for provisioning "jit" or identityMatch "account"',
      );
    // With match account the subject is the account's issued id.
    if (
      entry.provisioning === 'jit' &&
      match !== 'account' &&
      entry.accountClaim === undefined
    )
      fail('accountProvider', 'needs an accountClaim');
  }
  if (match === 'account' && entry.accountProvider === undefined)
    fail('identityMatch', '"account" needs an accountProvider');
  return {
    issuer: entry.issuer,
    position,
    jwksUri: entry.jwksUri ?? null,
    audiences: [...new Set(entry.audiences)],
    algorithms: [...new Set(entry.algorithms ?? JWT_ALGORITHMS)],
    identityClaim: entry.identityClaim ?? 'sub',
    identityMatch: match,
    accountClaim: entry.accountClaim ?? null,
    appIdClaims: entry.appIdClaims ?? ['client_id', 'azp'],
    scopeClaim: entry.scopeClaim ?? 'scope',
    provisioning: entry.provisioning ?? null,
    accountProvider: entry.accountProvider ?? null,
  };
}

/**
 * A provider's link settings as stored, or null; `fail` hears what breaks
 * the rules that span its keys: an OpenID Connect provider is found by its
 * issuer, a plain OAuth 2.0 one by its three endpoints and the user-info
 * field of its user id.
 */
export function linkRow(
  link: LinkSettings | undefined,
  fail: (field: string, message: string) => void,
): LinkRow | null {
  if (!link) return null;
  const endpoints = [
    'authorizationEndpoint',
    'tokenEndpoint',
    'userInfoEndpoint',
  ] as const;
  if (link.type === 'oidc') {
    if (link.issuer === undefined)
      fail('issuer', 'is required for OpenID Connect');
    for (const key of endpoints)
      if (link[key] !== undefined)
        fail(key, 'is found by discovery for OpenID Connect: leave it out');
    if (link.claims !== undefined)
      fail(
        'claims',
        'come from the ID token for OpenID Connect: leave them out',
      );
  } else {
    if (link.issuer !== undefined) fail('issuer', 'is for OpenID Connect only');
    for (const key of endpoints)
      if (link[key] === undefined) fail(key, 'is required for plain OAuth 2.0');
    if (link.claims?.issuedUserId === undefined)
      fail('claims.issuedUserId', 'is required for plain OAuth 2.0');
  }
  const row: LinkRow = { type: link.type, clientId: link.clientId };
  for (const key of ['issuer', ...endpoints] as const)
    if (link[key] !== undefined) row[key] = link[key];
  if (link.scopes !== undefined) row.scopes = [...new Set(link.scopes)];
  if (link.claims !== undefined)
    row.claims = Object.fromEntries(
      Object.entries(link.claims).filter(([, v]) => v !== undefined),
    );
  return row;
}

/** An identity of the file as the row to write: absent values empty, primaries in their lists. */
function identityRow(entry: IdentityEntry, identityId: string): IdentityRow {
  const given = entry as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const field of FIELD_NAMES) {
    const { kind } = IDENTITY_FIELDS[field];
    const value = given[field];
    row[field] =
      value === undefined
        ? emptyValue(kind)
        : kind === 'datetime'
          ? parseUtcDateTime(value)
          : kind === 'properties'
            ? { ...(value as object) }
            : value;
  }
  row.identityId = identityId;
  for (const [primary, list] of PRIMARIES)
    row[list] = withPrimary(
      row[primary] as string | null,
      row[list] as string[],
    );
  return row as IdentityRow;
}
