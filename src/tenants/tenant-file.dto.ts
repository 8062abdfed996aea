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

// The shape of a tenant import file (shared/import-format.md). Cross-record
// rules (uniqueness, references) are checked in tenant-file.validator.ts.

const Required = () => IsDefined({ message: 'is required' });
const IsList = () => IsArray({ message: 'must be an array' });

export const TOKEN_TYPES = ['access', 'app'] as const;
export const SCOPES = ['identities:read', 'identities:delete'] as const;

export const JWT_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;

/**
 * An authorization server whose signed JWTs the tenant accepts (an
 * extension of the import format: `tenant.tokenIssuers`).
 */
export class TokenIssuerRecord {
  @Required() @IsHttpUrl() issuer: string;
  @Absent() @IsHttpUrl() jwksUri?: string;

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
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  accountClaim?: string;
  @Absent() @IsList() @IsText({ each: true }) appIdClaims?: string[];
  @Absent()
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  scopeClaim?: string;
}

export class TenantRecord {
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
  @Type(() => TokenIssuerRecord)
  tokenIssuers?: TokenIssuerRecord[];
}

export class AccountProviderRecord {
  @Required()
  @IsText()
  @Matches(PROVIDER_ID, { message: `must match ${PROVIDER_ID}` })
  accountProviderId: string;

  @Absent() @IsText() displayName?: string;
  @Absent() @IsHttpUrl() providerImageUrl?: string;
  @Required() @IsHttpUrl() signInUrl: string;
  @Absent() @IsFlag() allowsMultipleAccounts?: boolean;
}

export class AccountRecord {
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

export class IdentityRecord {
  @Absent()
  @IsText()
  @Matches(IDENTITY_ID, { message: `must match ${IDENTITY_ID}` })
  identityId?: string;

  @Absent() @IsText() displayName?: string;
  @Absent() @IsText() userName?: string;
  @Absent() @IsText() privatePersonalIdentifier?: string;
  @Absent() @IsText() mobilePhone?: string;
  @Absent() @IsEmailAddress() emailAddress?: string;
  @Absent() @IsList() @IsEmailAddress({ each: true }) emailAddresses?: string[];
  @Absent() @IsFlag() emailAddressVerified?: boolean;
  @Absent() @IsFlag() mobilePhoneVerified?: boolean;
  @Absent() @IsFlag() disabled?: boolean;
  @Absent() @IsFlag() isArchived?: boolean;
  @Absent() @IsText() givenName?: string;
  @Absent() @IsText() surname?: string;
  @Absent() @IsTextList() givenNames?: string[];
  @Absent() @IsTextList() surnames?: string[];
  @Absent() @IsLocality() locality?: string;
  @Absent() @IsList() @IsLocality({ each: true }) localities?: string[];
  @Absent() @IsUrlList() smallPictures?: string[];
  @Absent() @IsUrlList() mediumPictures?: string[];
  @Absent() @IsUrlList() largePictures?: string[];
  @Absent() @IsUtcDateTime() lastLogin?: string;
  @Absent() @IsText() userNamePasswordAccountUserName?: string;
  @Absent() @IsTextList() oldIdentityIds?: string[];
  @Absent()
  @IsObject({ message: 'must be an object' })
  @IsStringMap()
  properties?: Record<string, string>;

  @Absent()
  @IsList()
  @ValidateNested({ each: true })
  @Type(() => AccountRecord)
  accounts?: AccountRecord[];

  @Absent() @IsTextList() roles?: string[];
  @Absent() @IsTextList() friends?: string[];
}

export class TokenRecord {
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
  @Type(() => TenantRecord)
  tenant: TenantRecord;

  @Absent()
  @IsList()
  @ValidateNested({ each: true })
  @Type(() => AccountProviderRecord)
  accountProviders?: AccountProviderRecord[];

  @Absent()
  @IsList()
  @ValidateNested({ each: true })
  @Type(() => IdentityRecord)
  identities?: IdentityRecord[];

  @Absent()
  @IsList()
  @ValidateNested({ each: true })
  @Type(() => TokenRecord)
  tokens?: TokenRecord[];
}
