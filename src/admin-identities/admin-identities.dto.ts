import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { ListFilter } from '../admin/admin.dto';
import { PageQuery } from '../common/pagination';
import {
  IDENTITY_ID_SCHEMA,
  IdentityField,
  IdentityResponse,
} from '../identity/identity.dto';

/** The most characters a search's text has. */
const MAX_QUERY_LENGTH = 200;

/**
 * What a search shows of each identity: a friend entry's fields (the
 * identity API's own list item: id, display name, pictures) with userName
 * and emailAddress, in the field table's order.
 */
export const SUMMARY_FIELDS = [
  'identityId',
  'displayName',
  'userName',
  'emailAddress',
  'smallPictures',
  'mediumPictures',
  'largePictures',
] as const satisfies readonly IdentityField[];

/** An identity as a search lists it: a field without a value is left out. */
export class IdentitySummaryResponse extends PickType(
  IdentityResponse,
  SUMMARY_FIELDS,
) {}

/** `?q=` of a search, beside its paging. */
export class IdentitySearchQuery extends PageQuery {
  @ListFilter(
    MAX_QUERY_LENGTH,
    'only the identities whose identityId, userName, displayName or one of whose e-mail addresses holds this text, A–Z matching a–z; % and _ are no wildcards',
  )
  q?: string;
}

/** A change log event, as the command line's `events` prints it. */
export class IdentityEventResponse {
  @ApiProperty({
    description: 'its position in the change log, increasing per tenant',
    pattern: '^[1-9][0-9]*$',
    example: '6',
  })
  id: string;
  @ApiProperty({ example: 'demo' }) tenantId: string;
  @ApiProperty({ ...IDENTITY_ID_SCHEMA, example: 'bob' }) identityId: string;
  @ApiProperty({
    enum: ['imported', 'created', 'updated', 'deleted', 'merged'],
  })
  type: string;
  @ApiProperty({
    type: [String],
    description: 'the names of the fields that changed, never their values',
    example: ['displayName', 'surname'],
  })
  fields: string[];
  @ApiPropertyOptional({
    ...IDENTITY_ID_SCHEMA,
    description:
      'for merges only: on merged, the identity merged in; on its deleted, the identity it was merged into',
  })
  relatedIdentityId?: string;
  @ApiProperty({ format: 'date-time', description: 'when it was committed' })
  occurredAt: string;
}
