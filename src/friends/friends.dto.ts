import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IDENTITY_ID_SCHEMA } from '../identity/identity.dto';
import type {
  IdentityField,
  IdentityResponse,
} from '../identity/identity-fields';

/** What a friend entry shows of the friend's identity. */
export const FRIEND_FIELDS = [
  'identityId',
  'displayName',
  'smallPictures',
  'mediumPictures',
  'largePictures',
] as const satisfies readonly IdentityField[];
export type FriendField = (typeof FRIEND_FIELDS)[number];

const pictures = (size: string) =>
  ApiPropertyOptional({
    type: [String],
    format: 'uri',
    description: `${size} pictures; left out when there are none`,
  });

/** A friend as the API returns it. */
export class FriendResponse implements Pick<IdentityResponse, FriendField> {
  @ApiProperty({
    description:
      'identifier of the friend; usable with GET /{tenant}/api/identity/v1/{id}',
    example: 'bob',
    ...IDENTITY_ID_SCHEMA,
  })
  identityId: string;
  @ApiPropertyOptional({
    description: 'display name of the friend',
    example: 'Bob Lee',
  })
  displayName?: string;
  @pictures('Small') smallPictures?: string[];
  @pictures('Medium') mediumPictures?: string[];
  @pictures('Large') largePictures?: string[];
}
