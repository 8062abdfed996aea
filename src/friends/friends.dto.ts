import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const pictures = (size: string) =>
  ApiPropertyOptional({
    type: [String],
    format: 'uri',
    description: `${size} pictures; left out when there are none`,
  });

/** A friend as the API returns it. */
export class FriendResponse {
  @ApiProperty({
    description:
      'identifier of the friend; usable with GET /{tenant}/api/identity/v1/{id}',
    example: 'bob',
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
