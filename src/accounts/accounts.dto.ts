import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
