import {
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
  PartialType,
} from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

const text = (description: string, example?: string) =>
  ApiPropertyOptional({ type: String, description, example });
const list = (description: string, example: string[]) =>
  ApiProperty({ type: [String], description, example });
const pictures = (size: string) =>
  ApiPropertyOptional({
    type: [String],
    format: 'uri',
    description: `${size} profile pictures; left out when there are none`,
    example: [
      `https://pictures.demo.example/alice/${size[0].toLowerCase()}.jpg`,
    ],
  });

/**
 * An identity as the API returns it (identity-api-v1.md, decisions.md). A
 * field without a value is left out, never null; examples are the demo
 * tenant's alice.
 */
export class IdentityResponse {
  @ApiProperty({
    description: 'unique identifier of the identity',
    example: 'alice',
  })
  identityId: string;
  @ApiProperty({
    description: 'true if the identity is disabled',
    example: false,
  })
  disabled: boolean;
  @ApiProperty({
    description: 'true if the identity is archived',
    example: false,
  })
  isArchived: boolean;
  @text('display name', 'Alice Martin') displayName?: string;
  @text('the profile user name', 'alice') userName?: string;
  @ApiPropertyOptional({
    format: 'email',
    description: 'primary e-mail address',
    example: 'alice@demo.example',
  })
  emailAddress?: string;
  @list('all e-mail addresses, the primary first', [
    'alice@demo.example',
    'alice.martin@mail.example',
  ])
  emailAddresses: string[];
  @ApiProperty({
    description: 'true if the primary e-mail address is verified',
    example: true,
  })
  emailAddressVerified: boolean;
  @text('primary given name', 'Alice') givenName?: string;
  @list('given names', ['Alice', 'Marie']) givenNames: string[];
  @text('primary surname', 'Martin') surname?: string;
  @list('surnames', ['Martin']) surnames: string[];
  @ApiPropertyOptional({
    pattern: '^[a-z]{2}-[A-Z]{2}$',
    description: 'language code, xx-XX',
    example: 'fr-FR',
  })
  locality?: string;
  @list('language codes', ['fr-FR', 'en-GB']) localities: string[];
  @text('mobile phone number', '+33 6 12 34 56 78') mobilePhone?: string;
  @ApiProperty({
    description: 'true if the mobile phone is verified',
    example: true,
  })
  mobilePhoneVerified: boolean;
  @text('a unique identifier', 'demo-ppid-alice')
  privatePersonalIdentifier?: string;
  @ApiPropertyOptional({
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}$',
    description:
      'UTC date and time of the last authentication, YYYY-MM-DDThh:mm:ss.fff, no offset',
    example: '2026-11-21T09:30:00.125',
  })
  lastLogin?: string;
  @pictures('Small') smallPictures?: string[];
  @pictures('Medium') mediumPictures?: string[];
  @pictures('Large') largePictures?: string[];
  @text("the user name of the identity's username/password account", 'alice')
  userNamePasswordAccountUserName?: string;
  @list('identifiers of identities merged into this one', ['alice-old'])
  oldIdentityIds: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'custom properties, by name',
    example: { team: 'Platform', office: 'Lyon' },
  })
  properties: Record<string, string>;
}

export type IdentityField = keyof IdentityResponse;

/** An identity reduced to some fields (public view, `?fields=`). */
export type PartialIdentityResponse = Partial<IdentityResponse> & {
  identityId: string;
};

export class IdentityQuery {
  @ApiPropertyOptional({
    description:
      'comma-separated field names, e.g. displayName,emailAddress; the response holds only those, and identityId',
  })
  @IsOptional()
  @IsString({ message: 'must be given once, as a comma-separated list' })
  fields?: string;
}

/** Fields a PUT may set; `null` clears one. */
export const EDITABLE_FIELDS = [
  'displayName',
  'userName',
  'givenName',
  'givenNames',
  'surname',
  'surnames',
  'locality',
  'localities',
  'mobilePhone',
  'emailAddress',
  'emailAddresses',
  'smallPictures',
  'mediumPictures',
  'largePictures',
  'properties',
] as const;

/** Fields a client sees but may not set. */
export const READ_ONLY_FIELDS = [
  'identityId',
  'disabled',
  'isArchived',
  'emailAddressVerified',
  'mobilePhoneVerified',
  'lastLogin',
  'oldIdentityIds',
  'privatePersonalIdentifier',
  'userNamePasswordAccountUserName',
] as const;

export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** A validated PUT body: only editable fields, each a value or null. */
export type IdentityUpdate = {
  [K in EditableField]?:
    | (K extends 'properties' ? Record<string, string> : IdentityResponse[K])
    | null;
};

/** Editable fields that hold lists. */
export const LIST_FIELDS: ReadonlySet<EditableField> = new Set<EditableField>([
  'givenNames',
  'surnames',
  'localities',
  'emailAddresses',
  'smallPictures',
  'mediumPictures',
  'largePictures',
]);

/** The PUT body in OpenAPI terms: every editable field, each nullable. */
export const UPDATE_BODY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  example: {
    displayName: 'Robert Lee',
    surname: null,
    properties: { team: 'Platform' },
  },
  properties: Object.fromEntries(
    EDITABLE_FIELDS.map((field) => {
      if (field === 'properties')
        return [
          field,
          {
            type: ['object', 'null'],
            additionalProperties: { type: 'string', maxLength: 512 },
            maxProperties: 100,
          },
        ];
      if (LIST_FIELDS.has(field))
        return [
          field,
          {
            type: ['array', 'null'],
            maxItems: 50,
            items: { type: 'string', maxLength: 512 },
          },
        ];
      return [field, { type: ['string', 'null'], maxLength: 512 }];
    }),
  ),
};

/** The same identity reduced by `?fields=` or to a friend's public view. */
export class ReducedIdentityResponse extends PartialType(IdentityResponse) {
  @ApiProperty({
    description: 'unique identifier of the identity; always present',
    example: 'alice',
  })
  identityId: string;
}

/** GET answers the whole identity, or a reduced one (fields, public view). */
export const IDENTITY_VIEW_SCHEMA = {
  anyOf: [
    { $ref: getSchemaPath(IdentityResponse) },
    { $ref: getSchemaPath(ReducedIdentityResponse) },
  ],
};
