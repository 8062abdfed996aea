import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsIn,
  IsISO8601,
  IsObject,
  Length,
  Matches,
  MaxLength,
  NotEquals,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  Absent,
  IsEmailAddress,
  IsFlag,
  IsHttpUrl,
  IsText,
  IsTextList,
  PROVIDER_ID,
  STORABLE_TEXT,
  TENANT_ID,
  TOKEN_SECRET,
  JWT_ALGORITHMS,
} from '../common/validation/field-rules';
import { SCOPES } from '../identity/principal';
import { withFieldRules } from '../identity/identity-field-rules';
import { shapedClass } from '../common/validation/shaped-class';
import { IsIssuerUrl } from '../common/validation/outbound-url';
import { IDENTITY_MATCHES, type IdentityMatch } from './tenant-data';
import { IdentityResponse } from '../identity/identity-fields';

// The shape of a tenant import file (docs/import-format.md). Cross-record
// rules (uniqueness, references) are checked in tenant-file.validator.ts.

const Required = () => IsDefined({ message: 'is required' });
const IsList = () => IsArray({ message: 'must be an array' });

export const TOKEN_TYPES = ['access', 'app'] as const;
export { SCOPES } from '../identity/principal';

export { JWT_ALGORITHMS };
export const PROVISIONING_MODES = ['jit'] as const;

/** The longest URL of a provider or an issuer. */
export const URL_MAX_LENGTH = 2048;
/** The most audiences an issuer names, and how long each is. */
const MAX_AUDIENCES = 100;
const AUDIENCE_MAX_LENGTH = 512;
/** The most return URLs a tenant allows after linking an account. */
export const MAX_RETURN_URLS = 20;
/** The most claims that may carry an app id. */
const MAX_APP_ID_CLAIMS = 10;

const UrlLength = () =>
  MaxLength(URL_MAX_LENGTH, {
    message: `must be at most ${URL_MAX_LENGTH} characters`,
  });
const URL_DOC = { format: 'uri', maxLength: URL_MAX_LENGTH } as const;
const TEXT_DOC = { pattern: STORABLE_TEXT.source } as const;
const CLAIM_DOC = { ...TEXT_DOC, minLength: 1, maxLength: 200 } as const;

/**
 * The rules of an issuer's URL, checked in this order: an address the
 * service may fetch from, its length, an absolute http(s) URL.
 */
const IssuerUrlRules = () =>
  applyDecorators(IsIssuerUrl(), UrlLength(), IsHttpUrl());
/** An optional URL of an issuer, or of an OpenID Connect provider found as one. */
const OptionalIssuerUrl = (description: string) =>
  applyDecorators(
    Absent(),
    IssuerUrlRules(),
    ApiPropertyOptional({ ...URL_DOC, description }),
  );

/**
 * An authorization server whose signed JWTs the tenant accepts (an
 * extension of the import format: `tenant.tokenIssuers`; the admin API's
 * token issuers have the same keys). Documented for the OpenAPI document.
 */
export class TokenIssuerEntry {
  @Required()
  @IssuerUrlRules()
  @ApiProperty({
    ...URL_DOC,
    description:
      'the `iss` of its tokens: https (http on loopback only), no private or link-local address unless the service allows it',
    example: 'https://login.example.com/',
  })
  issuer: string;
  @OptionalIssuerUrl(
    'its key set; found by OpenID Connect discovery when left out (the same address rules)',
  )
  jwksUri?: string;

  @Required()
  @IsList()
  @ArrayNotEmpty({ message: 'must name at least one audience' })
  @ArrayMaxSize(MAX_AUDIENCES, {
    message: `must have at most ${MAX_AUDIENCES} items`,
  })
  @IsText({ each: true })
  @Length(1, AUDIENCE_MAX_LENGTH, {
    each: true,
    message: `each item must be 1 to ${AUDIENCE_MAX_LENGTH} characters`,
  })
  @ApiProperty({
    type: 'array',
    items: {
      type: 'string',
      ...TEXT_DOC,
      minLength: 1,
      maxLength: AUDIENCE_MAX_LENGTH,
    },
    minItems: 1,
    maxItems: MAX_AUDIENCES,
    description: 'accepted `aud` values',
  })
  audiences: string[];

  @Absent()
  @IsList()
  @ArrayNotEmpty({ message: 'must name at least one algorithm' })
  @ArrayMaxSize(JWT_ALGORITHMS.length, {
    message: `must have at most ${JWT_ALGORITHMS.length} items`,
  })
  @IsIn(JWT_ALGORITHMS, {
    each: true,
    message: `each item must be one of ${JWT_ALGORITHMS.join(', ')}`,
  })
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...JWT_ALGORITHMS] },
    minItems: 1,
    maxItems: JWT_ALGORITHMS.length,
    description: 'default: all of them',
  })
  algorithms?: (typeof JWT_ALGORITHMS)[number][];

  @Absent()
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  @ApiPropertyOptional({ ...CLAIM_DOC, default: 'sub' })
  identityClaim?: string;
  @Absent()
  @IsIn(IDENTITY_MATCHES, {
    message: `must be one of ${IDENTITY_MATCHES.join(', ')}`,
  })
  @ApiPropertyOptional({
    enum: IDENTITY_MATCHES,
    default: 'identityId',
    description: 'which key of an identity the identity claim carries',
  })
  identityMatch?: IdentityMatch;
  @Absent()
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  @ApiPropertyOptional(CLAIM_DOC)
  accountClaim?: string;
  @Absent()
  @IsList()
  @ArrayMaxSize(MAX_APP_ID_CLAIMS, {
    message: `must have at most ${MAX_APP_ID_CLAIMS} items`,
  })
  @IsText({ each: true })
  @Length(1, 200, {
    each: true,
    message: 'each item must be 1 to 200 characters',
  })
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', ...CLAIM_DOC },
    maxItems: MAX_APP_ID_CLAIMS,
    default: ['client_id', 'azp'],
  })
  appIdClaims?: string[];
  @Absent()
  @IsText()
  @Length(1, 200, { message: 'must be 1 to 200 characters' })
  @ApiPropertyOptional({ ...CLAIM_DOC, default: 'scope' })
  scopeClaim?: string;

  @Absent()
  @IsIn(PROVISIONING_MODES, { message: 'must be "jit"' })
  @ApiPropertyOptional({
    enum: PROVISIONING_MODES,
    description: 'its tokens create the identities they name',
  })
  provisioning?: (typeof PROVISIONING_MODES)[number];
  @Absent()
  @IsText()
  @Matches(PROVIDER_ID, { message: `must match ${PROVIDER_ID}` })
  @ApiPropertyOptional({ pattern: PROVIDER_ID.source, maxLength: 64 })
  accountProvider?: string;
}

/** The tenant's return URLs after linking an account, in the file and the admin API. */
export const AreReturnUrls = () =>
  applyDecorators(
    IsList(),
    ArrayMaxSize(MAX_RETURN_URLS, {
      message: `must have at most ${MAX_RETURN_URLS} items`,
    }),
    IsHttpUrl({ each: true }),
    MaxLength(URL_MAX_LENGTH, {
      each: true,
      message: `each item must be at most ${URL_MAX_LENGTH} characters`,
    }),
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', format: 'uri', maxLength: URL_MAX_LENGTH },
      maxItems: MAX_RETURN_URLS,
      description:
        'where a browser may be sent after linking an account; the first is the default',
    }),
  );

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

  @Absent() @AreReturnUrls() linkReturnUrls?: string[];
}

export const LINK_TYPES = ['oidc', 'oauth2'] as const;
/** A client secret: printable ASCII (RFC 6749's VSCHAR), as providers issue them. */
export const CLIENT_SECRET = /^[\x20-\x7E]{1,1024}$/;
/** A scope of OAuth 2.0 (RFC 6749 §3.3: no space, quote or backslash). */
const OAUTH_SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/;
const MAX_LINK_SCOPES = 20;

const Endpoint = () =>
  applyDecorators(
    Absent(),
    IsHttpUrl(),
    UrlLength(),
    IsIssuerUrl(),
    ApiPropertyOptional({
      ...URL_DOC,
      description: 'plain OAuth 2.0 only (the same address rules as issuers)',
    }),
  );

const ClaimName = (description: string) =>
  applyDecorators(
    Absent(),
    IsText(),
    Length(1, 200, { message: 'must be 1 to 200 characters' }),
    ApiPropertyOptional({ ...CLAIM_DOC, description }),
  );

/** Which fields of a plain OAuth 2.0 provider's user info give the account's. */
export class LinkClaims {
  @ClaimName('the user id (required for plain OAuth 2.0), e.g. `id`')
  issuedUserId?: string;
  @ClaimName('e.g. `name` or `login`') displayName?: string;
  @ClaimName('e.g. `email`') emailAddress?: string;
  @ClaimName('e.g. `avatar_url`') pictureUrl?: string;
  @ClaimName('e.g. `html_url`') accountProfileUrl?: string;
}

/**
 * How the service links an account of a provider when a browser comes to
 * its signInUrl (docs/api.md, linking an account): an OpenID Connect
 * provider found by discovery, or a plain OAuth 2.0 one by its endpoints.
 * The client secret is written here and never read back: an answer or an
 * export says only when it was set.
 */
export class LinkSettings {
  @Required()
  @IsIn(LINK_TYPES, { message: `must be one of ${LINK_TYPES.join(', ')}` })
  @ApiProperty({ enum: LINK_TYPES })
  type: (typeof LINK_TYPES)[number];

  @OptionalIssuerUrl(
    'OpenID Connect only: the provider, found by discovery (the same address rules as issuers)',
  )
  issuer?: string;
  @Endpoint() authorizationEndpoint?: string;
  @Endpoint() tokenEndpoint?: string;
  @Endpoint() userInfoEndpoint?: string;

  @Required()
  @IsText()
  @Length(1, 512, { message: 'must be 1 to 512 characters' })
  @ApiProperty({ ...TEXT_DOC, minLength: 1, maxLength: 512 })
  clientId: string;

  // Write-only: answers, exports and logs give clientSecretSetAt instead.
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @Matches(CLIENT_SECRET, {
    message:
      'must be 1 to 1024 printable ASCII characters (an OAuth 2.0 client secret)',
  })
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    writeOnly: true,
    pattern: CLIENT_SECRET.source,
    maxLength: 1024,
    description:
      'the client secret, kept encrypted and never shown; sent only to the provider’s token endpoint. Left out: a new provider has none and a change keeps the one set, unless the change sends it elsewhere (type, issuer, tokenEndpoint or clientId), which needs it given again; null removes it (a public client, PKCE only)',
  })
  clientSecret?: string | null;

  // Read-only: what an answer says of the secret; a request's is ignored,
  // so that an answer or an export can be sent back as it is.
  @Absent()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date-time' })
  @ApiPropertyOptional({
    readOnly: true,
    format: 'date-time',
    maxLength: 24,
    description: 'when the client secret was set; absent when none is',
  })
  clientSecretSetAt?: string;

  @Absent()
  @IsList()
  @ArrayMaxSize(MAX_LINK_SCOPES, {
    message: `must have at most ${MAX_LINK_SCOPES} items`,
  })
  @Matches(OAUTH_SCOPE, {
    each: true,
    message:
      'each item must be an OAuth 2.0 scope (1 to 200 characters, no space)',
  })
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', pattern: OAUTH_SCOPE.source, maxLength: 200 },
    maxItems: MAX_LINK_SCOPES,
    description:
      'default: `openid profile email` for OpenID Connect, none for plain OAuth 2.0',
  })
  scopes?: string[];

  @Absent()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => LinkClaims)
  @ApiPropertyOptional({ type: LinkClaims })
  claims?: LinkClaims;
}

/** An account provider's settings: all but its id, what the admin API's PUT replaces. */
export class AccountProviderSettings {
  @Absent()
  @IsText()
  @MaxLength(200, { message: 'must be at most 200 characters' })
  @ApiPropertyOptional({ ...TEXT_DOC, maxLength: 200 })
  displayName?: string;
  @Absent()
  @IsHttpUrl()
  @UrlLength()
  @ApiPropertyOptional(URL_DOC)
  providerImageUrl?: string;
  @Required()
  @IsHttpUrl()
  @UrlLength()
  @ApiProperty({
    ...URL_DOC,
    description: 'where an identity signs in to link an account here',
  })
  signInUrl: string;
  @Absent()
  @IsFlag()
  @ApiPropertyOptional({
    default: false,
    description: 'whether an identity may have several accounts here',
  })
  allowsMultipleAccounts?: boolean;

  @Absent()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => LinkSettings)
  @ApiPropertyOptional({
    type: LinkSettings,
    description:
      'how signInUrl links an account for real; without it, signInUrl is given as it is',
  })
  link?: LinkSettings;
}

export class AccountProviderEntry extends AccountProviderSettings {
  @Required()
  @IsText()
  @Matches(PROVIDER_ID, { message: `must match ${PROVIDER_ID}` })
  @ApiProperty({
    pattern: PROVIDER_ID.source,
    maxLength: 64,
    example: 'github',
  })
  accountProviderId: string;
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
 * An identity of the file: every field of the field table, with its kind's
 * rule (identity-field-rules.ts), then its accounts, roles and friends.
 */
export class IdentityEntry extends shapedClass<
  Partial<IdentityResponse> & {
    accounts?: AccountEntry[];
    roles?: string[];
    friends?: string[];
  }
>() {}

/** The relations of an identity of the file, after its fields' rules. */
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
withFieldRules(IdentityEntry, Object.entries(RELATIONS));

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
