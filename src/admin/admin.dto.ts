import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateBy,
} from 'class-validator';
import { SCOPES } from '../identity/principal';
import {
  ADMIN_ACTIONS,
  type AdminAction,
  MAX_ACTOR_LENGTH,
} from '../events/admin-actions';
import { PageQuery } from '../common/pagination';
import {
  IDENTITY_ID,
  IDENTITY_ID_MAX_LENGTH,
  isStorableText,
  PROVIDER_ID,
  STORABLE_TEXT,
} from '../common/validation/field-rules';

/** An issuer's id: 22 characters of base64url. */
export const ISSUER_ID = /^[A-Za-z0-9_-]{22}$/;
import { Absent, IsText, IsTextList } from '../common/validation/field-rules';
import {
  AccountProviderSettings,
  AreReturnUrls,
  TokenIssuerEntry,
} from '../tenants/tenant-file.dto';

/** The longest a token may live when the admin API makes it: a year. */
export const MAX_TTL_SECONDS = 366 * 86400;

/** An optional name (a tenant's, an app's): 1 to 200 characters, its length checked first. */
const OptionalName = () =>
  applyDecorators(
    Absent(),
    Length(1, 200, { message: 'must be 1 to 200 characters' }),
    IsText(),
    ApiPropertyOptional({
      minLength: 1,
      maxLength: 200,
      pattern: STORABLE_TEXT.source,
    }),
  );

/**
 * A parameter that chooses what a list holds (`?q=`, `?appId=`): given
 * once, 1 to `max` characters the database can store.
 */
export const ListFilter = (max: number, description: string) =>
  applyDecorators(
    IsOptional(),
    // Given twice, it is an array: that is the one thing said of it.
    IsString({ message: 'must be given once' }),
    ValidateBy(
      {
        name: 'isFilterLength',
        validator: {
          validate: (value: unknown) =>
            typeof value !== 'string' ||
            // Characters as JSON Schema's maxLength counts them: code points.
            (value.length >= 1 && [...value].length <= max),
        },
      },
      { message: `must be 1 to ${max} characters` },
    ),
    ValidateBy(
      { name: 'isStorableText', validator: { validate: isStorableText } },
      { message: 'must not contain U+0000 or a lone surrogate' },
    ),
    ApiPropertyOptional({
      description,
      minLength: 1,
      maxLength: max,
      pattern: STORABLE_TEXT.source,
    }),
  );

export class TenantSettingsResponse {
  @ApiProperty({ example: 'demo' }) id: string;
  @ApiProperty({ example: 'Demo tenant' }) name: string;
  @ApiProperty({
    type: [String],
    description: 'roles whose holders are admins of the identity API',
    example: ['admin'],
  })
  adminRoles: string[];
  @ApiProperty({
    type: [String],
    description:
      'where a browser may be sent after linking an account (a link URL’s redirect_uri must be one); the first is the default',
  })
  linkReturnUrls: string[];
}

/** PATCH of the settings: the keys it names are replaced. */
export class TenantSettingsPatch {
  @OptionalName() name?: string;

  // Its sizes (at most 100 roles of 1 to 200 characters) are checked once
  // it is known to be a list (AdminService.updateSettings).
  @Absent()
  @IsTextList()
  @ApiPropertyOptional({
    type: 'array',
    items: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: STORABLE_TEXT.source,
    },
    maxItems: 100,
  })
  adminRoles?: string[];

  @Absent() @AreReturnUrls() linkReturnUrls?: string[];
}

export class TokenResponse {
  @ApiProperty({ format: 'uuid' }) tokenId: string;
  @ApiProperty({ enum: ['access', 'app'] }) type: 'access' | 'app';
  @ApiPropertyOptional({ description: 'an access token’s identity' })
  identityId?: string;
  @ApiPropertyOptional({ description: 'the account it was issued for' })
  accountId?: string;
  @ApiPropertyOptional({ description: 'an app token’s application' })
  appId?: string;
  @ApiProperty({ type: [String], enum: SCOPES }) scopes: string[];
  @ApiPropertyOptional({ format: 'date-time' }) expiresAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) revokedAt?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description:
      'when it was last accepted, to the minute: written at most once a minute',
  })
  lastUsedAt?: string;
}

/** The token list's page, and which tokens it holds. */
export class TokenListQuery extends PageQuery {
  @ListFilter(IDENTITY_ID_MAX_LENGTH, 'only the access tokens of this identity')
  identityId?: string;
  @ListFilter(200, 'only the app tokens of this app')
  appId?: string;
}

export class CreatedTokenResponse extends TokenResponse {
  @ApiProperty({
    description: 'the token’s secret: in this answer only, never again',
    example: 'idt_5HbXiM0Iogfr55o0umTCRFPJ4PJtMS-3UOMzeQuFagw',
  })
  secret: string;
}

/** POST of a token: an identity's access token or an application's app token. */
export class TokenRequestBody {
  @Absent()
  @IsText()
  @ApiPropertyOptional({ maxLength: 128, pattern: IDENTITY_ID.source })
  identityId?: string;
  @Absent()
  @IsText()
  @ApiPropertyOptional({ maxLength: 512, pattern: STORABLE_TEXT.source })
  accountId?: string;
  @OptionalName() appId?: string;

  @Absent()
  @IsArray({ message: 'must be an array' })
  @IsIn(SCOPES, {
    each: true,
    message: `each item must be one of ${SCOPES.join(', ')}`,
  })
  @ApiPropertyOptional({
    type: [String],
    enum: SCOPES,
    maxItems: SCOPES.length,
  })
  scopes?: string[];

  @Absent()
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_TTL_SECONDS, { message: `must be at most ${MAX_TTL_SECONDS}` })
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_TTL_SECONDS })
  ttlSeconds?: number;
}

/** GET of the audit log: a page, of one action or one actor (or both) when asked. */
export class AdminEventListQuery extends PageQuery {
  @IsOptional()
  @IsString({ message: 'must be given once' })
  @ValidateBy(
    {
      name: 'isAdminAction',
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' ||
          (ADMIN_ACTIONS as readonly string[]).includes(value),
      },
    },
    { message: `must be one of ${ADMIN_ACTIONS.join(', ')}` },
  )
  @ApiPropertyOptional({
    description: 'only the entries of this action',
    enum: ADMIN_ACTIONS,
  })
  action?: AdminAction;
  @ListFilter(
    MAX_ACTOR_LENGTH,
    'only the entries of this actor, exactly as the log names it (app:<appId> or cli)',
  )
  actor?: string;
}

export class AdminEventResponse {
  @ApiProperty({ description: 'position in the log (a decimal string)' })
  id: string;
  @ApiProperty({ example: 'app:ops-console' }) actor: string;
  @ApiProperty({ enum: ADMIN_ACTIONS })
  action: string;
  @ApiProperty({
    description:
      'tenant, token:<id>, provider:<id>, issuer:<URL> or webhook:<id>',
    example: 'tenant',
  })
  target: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  before?: object;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  after?: object;
  @ApiProperty({ format: 'date-time' }) occurredAt: string;
}

/** PUT of a provider: its settings; its id, when sent, is the path's. */
export class ProviderReplacement extends AccountProviderSettings {
  @Absent()
  @IsText()
  @ApiPropertyOptional({
    description: 'when sent (as GET gives it), the path’s id',
    pattern: PROVIDER_ID.source,
    maxLength: 64,
  })
  accountProviderId?: string;
}

/** PUT of an issuer: its keys; its URL stays, and its id, when sent, is the path's. */
export class IssuerReplacement extends TokenIssuerEntry {
  @Absent()
  @IsText()
  @ApiPropertyOptional({
    description: 'when sent (as GET gives it), the path’s id',
    pattern: ISSUER_ID.source,
    maxLength: 22,
  })
  id?: string;
}

export class IssuerResponseBody extends TokenIssuerEntry {
  @ApiProperty({
    description:
      'its id in this API’s paths: the SHA-256 of its URL, base64url, 22 characters',
    example: 'n4bQgYhMfWWaL-qgxVrQFa',
  })
  id: string;
}

/** `?deleteAccounts=` of a provider's DELETE. */
export class RemoveProviderQuery {
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description:
      'remove the provider’s accounts with it (otherwise 409 while it has any)',
  })
  deleteAccounts?: 'true' | 'false';
}

/** The keys an account provider's body may have (its id only when it creates one). */
export const PROVIDER_KEYS = [
  'accountProviderId',
  'displayName',
  'providerImageUrl',
  'signInUrl',
  'allowsMultipleAccounts',
  'link',
] as const;

/** The keys a token issuer's body may have. */
export const ISSUER_KEYS = [
  'issuer',
  'jwksUri',
  'audiences',
  'algorithms',
  'identityClaim',
  'identityMatch',
  'accountClaim',
  'appIdClaims',
  'scopeClaim',
  'provisioning',
  'accountProvider',
] as const;
