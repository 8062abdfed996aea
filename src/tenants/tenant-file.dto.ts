import { Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsIn,
  IsISO8601,
  IsObject,
  Length,
  Matches,
  NotEquals,
  ValidateNested,
} from 'class-validator';
import {
  Absent,
  IDENTITY_ID,
  IsEmailAddress,
  IsFlag,
  IsHttpUrl,
  IsLocality,
  IsStringMap,
  IsText,
  IsTextList,
  IsUrlList,
  IsUtcDateTime,
  PROVIDER_ID,
  TENANT_ID,
  TOKEN_SECRET,
} from '../common/validation/field-rules';
import { SCOPES } from '../auth/principal';
import { IsIssuerUrl } from '../common/validation/outbound-url';
import { IDENTITY_MATCHES, type IdentityMatch } from './tenant-data';
import {
  FIELD_NAMES,
  FieldKind,
  IDENTITY_FIELDS,
  IdentityResponse,
} from '../identity/identity-fields';

// The shape of a tenant import file (docs/import-format.md). Cross-record
// rules (uniqueness, references) are checked in tenant-file.validator.ts.

const Required = () => IsDefined({ message: 'is required' });
const IsList = () => IsArray({ message: 'must be an array' });

export const TOKEN_TYPES = ['access', 'app'] as const;
export { SCOPES } from '../auth/principal';

export const JWT_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
export const PROVISIONING_MODES = ['jit'] as const;

/**
 * An authorization server whose signed JWTs the tenant accepts (an
 * extension of the import format: `tenant.tokenIssuers`).
 */
export class TokenIssuerEntry {
  @Required() @IsHttpUrl() @IsIssuerUrl() issuer: string;
  @Absent() @IsHttpUrl() @IsIssuerUrl() jwksUri?: string;

  @Required()
  @IsList()
  @ArrayNotEmpty({ message: 'must name at least one audience' })
  @IsText({ each: true })
  audiences: string[];

  @Absent()
  @IsList()
  @ArrayNotEmpty({ message: 'must name at least one algorithm' })
  @IsIn(JWT_ALGORITHMS, {
    each: true,
    message: `each item must be one of ${JWT_ALGORITHMS.join(', ')}`,
  })
  algorithms?: (typeof JWT_ALGORITHMS)[number][];

  @Absent()
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  identityClaim?: string;
  @Absent()
  @IsIn(IDENTITY_MATCHES, {
    message: `must be one of ${IDENTITY_MATCHES.join(', ')}`,
  })
  identityMatch?: IdentityMatch;
  @Absent()
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  accountClaim?: string;
  @Absent() @IsList() @IsText({ each: true }) appIdClaims?: string[];
  @Absent()
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  scopeClaim?: string;

  @Absent()
  @IsIn(PROVISIONING_MODES, { message: 'must be "jit"' })
  provisioning?: (typeof PROVISIONING_MODES)[number];
  @Absent()
  @IsText()
  @Matches(PROVIDER_ID, { message: `must match ${PROVIDER_ID}` })
  accountProvider?: string;
}

export class TenantEntry {
  @Required()
  @IsText()
  @Matches(TENANT_ID, { message: `must match ${TENANT_ID}` })
  id: string;

  @Required()
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  name: string;

  @Absent()
  @IsTextList()
  adminRoles?: string[];

  @Absent()
  @IsList()
  @ValidateNested({ each: true })
  @Type(() => TokenIssuerEntry)
  tokenIssuers?: TokenIssuerEntry[];
}

export class AccountProviderEntry {
  @Required()
  @IsText()
  @Matches(PROVIDER_ID, { message: `must match ${PROVIDER_ID}` })
  accountProviderId: string;

  @Absent() @IsText() displayName?: string;
  @Absent() @IsHttpUrl() providerImageUrl?: string;
  @Required() @IsHttpUrl() signInUrl: string;
  @Absent() @IsFlag() allowsMultipleAccounts?: boolean;
}

export class AccountEntry {
  @Absent()
  @IsText()
  @Length(1, 512, { message: 'must be 1 to 512 characters' })
  accountId?: string;

  @Required() @IsText() accountProviderId: string;
  @Required()
  @IsText()
  @Length(1, 512, { message: 'must be 1 to 512 characters' })
  issuedUserId: string;

  @Absent() @IsText() accountPrivatePersonalIdentifier?: string;
  @Absent() @IsText() displayName?: string;
  @Absent() @IsEmailAddress() emailAddress?: string;
  @Absent() @IsHttpUrl() accountProfileUrl?: string;
  @Absent() @IsHttpUrl() pictureUrl?: string;
}

/**
 * An identity of the file: every field of the field table, with the rule
 * its kind has in the import format, then its accounts, roles and friends.
 */
export class IdentityEntry {}
export interface IdentityEntry extends Partial<IdentityResponse> {
  accounts?: AccountEntry[];
  roles?: string[];
  friends?: string[];
}

/** The import format's rule for each kind of identity field, in decorator order. */
const RULES: Record<FieldKind, PropertyDecorator[]> = {
  id: [
    IsText(),
    Matches(IDENTITY_ID, { message: `must match ${IDENTITY_ID}` }),
  ],
  text: [IsText()],
  email: [IsEmailAddress()],
  locality: [IsLocality()],
  datetime: [IsUtcDateTime()],
  flag: [IsFlag()],
  texts: [IsTextList()],
  emails: [IsList(), IsEmailAddress({ each: true })],
  localities: [IsList(), IsLocality({ each: true })],
  urls: [IsUrlList()],
  properties: [IsObject({ message: 'must be an object' }), IsStringMap()],
};
const RELATIONS: Record<'accounts' | 'roles' | 'friends', PropertyDecorator[]> =
  {
    accounts: [
      IsList(),
      ValidateNested({ each: true }),
      Type(() => AccountEntry),
    ],
    roles: [IsTextList()],
    friends: [IsTextList()],
  };
// Applied as decorators would be: the last one written first.
for (const [field, rules] of [
  ...FIELD_NAMES.map((f) => [f, RULES[IDENTITY_FIELDS[f].kind]] as const),
  ...Object.entries(RELATIONS),
])
  for (const rule of [Absent(), ...rules].reverse())
    rule(IdentityEntry.prototype, field);

export class TokenEntry {
  @Required()
  @IsText()
  @Matches(TOKEN_SECRET, {
    message: 'must be 20 to 512 characters of [A-Za-z0-9._~+/-]',
  })
  token: string;

  @Required()
  @IsIn(TOKEN_TYPES, { message: 'must be "access" or "app"' })
  type: (typeof TOKEN_TYPES)[number];

  @Absent() @IsText() identityId?: string;
  @Absent() @IsText() accountId?: string;
  @Absent()
  @IsText()
  @NotEquals('', { message: 'must not be empty' })
  appId?: string;
  @Absent()
  @IsList()
  @IsIn(SCOPES, {
    each: true,
    message: `each item must be one of ${SCOPES.join(', ')}`,
  })
  scopes?: (typeof SCOPES)[number][];

  @Absent()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date and time' })
  expiresAt?: string;
}

export class TenantFile {
  @Required()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => TenantEntry)
  tenant: TenantEntry;

  @Absent()
  @IsList()
  @ValidateNested({ each: true })
  @Type(() => AccountProviderEntry)
  accountProviders?: AccountProviderEntry[];

  @Absent()
  @IsList()
  @ValidateNested({ each: true })
  @Type(() => IdentityEntry)
  identities?: IdentityEntry[];

  @Absent()
  @IsList()
  @ValidateNested({ each: true })
  @Type(() => TokenEntry)
  tokens?: TokenEntry[];
}
