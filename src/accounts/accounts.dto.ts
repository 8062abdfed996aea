import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PROVIDER_ID } from '../common/validation/field-rules';

/** An account as the API returns it; examples from the demo tenant. */
export class AccountResponse {
  @ApiProperty({
    description: 'unique identifier of the account',
    example: 'acc-alice-google-1',
  })
  accountId: string;
  @ApiPropertyOptional({
    description: 'identifier of the account as returned by the provider',
    example: 'g-ppid-alice',
  })
  accountPrivatePersonalIdentifier?: string;
  @ApiPropertyOptional({
    format: 'uri',
    description: "URL of the account's profile",
    example: 'https://profiles.google.example/200000000000000000001',
  })
  accountProfileUrl?: string;
  @ApiPropertyOptional({
    description: 'display name of the account',
    example: 'Alice Martin',
  })
  displayName?: string;
  @ApiPropertyOptional({
    format: 'email',
    description: 'e-mail address of the account',
    example: 'alice@demo.example',
  })
  emailAddress?: string;
  @ApiProperty({
    description: "the user's identifier as issued by the provider",
    example: '200000000000000000001',
  })
  issuedUserId: string;
  @ApiPropertyOptional({
    format: 'uri',
    description: 'profile picture of the account',
    example: 'https://pictures.google.example/200000000000000000001.jpg',
  })
  pictureUrl?: string;
  @ApiProperty({
    description: 'true for the account the calling access token was issued for',
    example: true,
  })
  isCurrent: boolean;
}

/** One account provider of the tenant with the identity's accounts there. */
export class AccountProviderResponse {
  @ApiProperty({
    description: 'unique identifier of the account provider',
    example: 'google',
    pattern: PROVIDER_ID.source,
  })
  accountProviderId: string;
  @ApiProperty({
    type: [AccountResponse],
    description: "the identity's accounts at this provider; empty when none",
  })
  accounts: AccountResponse[];
  @ApiProperty({
    description:
      'true if the identity can add another account of this provider',
    example: true,
  })
  canAddAnotherAccount: boolean;
  @ApiPropertyOptional({
    description: 'display name of the provider',
    example: 'Google',
  })
  displayName?: string;
  @ApiPropertyOptional({
    format: 'uri',
    description: 'image of the provider',
    example: 'https://static.demo.example/providers/google.png',
  })
  providerImageUrl?: string;
  @ApiProperty({
    format: 'uri',
    description: 'where to send the user to link an account of this provider',
    example: 'https://login.demo.example/demo/google/link',
  })
  signInUrl: string;
}

/** The query of a link URL (docs/api.md, linking an account). */
export class LinkStartQuery {
  @IsString({ message: 'must be given once' })
  @Matches(/^[A-Za-z0-9_.-]{1,300}$/, { message: 'is not a link ticket' })
  @ApiProperty({
    description: 'the ticket the accounts list put in the URL',
    pattern: '^[A-Za-z0-9_.-]{1,300}$',
    maxLength: 300,
  })
  ticket: string;

  @IsOptional()
  @IsString({ message: 'must be given once' })
  @MaxLength(2048, { message: 'must be at most 2048 characters' })
  @ApiPropertyOptional({
    description:
      'where the browser goes afterwards: one of the tenant’s linkReturnUrls (the first when left out)',
    format: 'uri',
    maxLength: 2048,
  })
  redirect_uri?: string;
}

/** What a provider sends back to the callback (RFC 6749 §4.1.2). */
export class LinkCallbackQuery {
  @IsString({ message: 'must be given once' })
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'is not a link state' })
  @ApiProperty({ pattern: '^[A-Za-z0-9_-]{1,128}$', maxLength: 128 })
  state: string;

  @IsOptional()
  @IsString({ message: 'must be given once' })
  @MaxLength(4096, { message: 'must be at most 4096 characters' })
  @ApiPropertyOptional({ maxLength: 4096, pattern: '^[\\x20-\\x7E]*$' })
  code?: string;

  @IsOptional()
  @IsString({ message: 'must be given once' })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  @ApiPropertyOptional({ maxLength: 200, pattern: '^[\\x20-\\x7E]*$' })
  error?: string;

  @IsOptional()
  @IsString({ message: 'must be given once' })
  @MaxLength(2048, { message: 'must be at most 2048 characters' })
  @ApiPropertyOptional({ maxLength: 2048, format: 'uri' })
  iss?: string;

  // Sent by providers beside an error; read by nobody, never refused.
  @IsOptional() @IsString() error_description?: string;
  @IsOptional() @IsString() error_uri?: string;
  @IsOptional() @IsString() session_state?: string;
}

/** The body of a link's confirmation (docs/api.md, linking an account). */
export class LinkConfirmation {
  @IsString({ message: 'must be a string' })
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'is not a link code' })
  @ApiProperty({
    description: 'the linkCode the return URL received',
    pattern: '^[A-Za-z0-9_-]{43}$',
    minLength: 43,
    maxLength: 43,
  })
  linkCode: string;
}
