import { shapedClass } from '../common/validation/shaped-class';
import {
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
  PartialType,
} from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import {
  IDENTITY_ID,
  IDENTITY_ID_MAX_LENGTH,
  LOCALITY,
} from '../common/validation/field-rules';
import {
  FIELD_NAMES,
  FieldKind,
  IDENTITY_FIELDS,
  IdentityField,
  IdentityResponse as IdentityResponseShape,
} from './identity-fields';

export type {
  EditableField,
  IdentityField,
  IdentityUpdate,
} from './identity-fields';
export { EDITABLE_FIELDS, READ_ONLY_FIELDS } from './identity-fields';

/** An identityId as the service stores it. */
export const IDENTITY_ID_SCHEMA = {
  type: 'string',
  pattern: IDENTITY_ID.source,
  maxLength: IDENTITY_ID_MAX_LENGTH,
} as const;

/** Each kind of field in OpenAPI terms. */
const SCHEMA_OF: Record<FieldKind, object> = {
  id: IDENTITY_ID_SCHEMA,
  text: { type: String },
  email: { type: String, format: 'email' },
  locality: { type: String, pattern: LOCALITY.source },
  datetime: {
    type: String,
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}$',
  },
  flag: { type: Boolean },
  texts: { type: [String] },
  emails: { type: [String], format: 'email' },
  localities: { type: [String], pattern: LOCALITY.source },
  urls: { type: [String], format: 'uri' },
  properties: { type: 'object', additionalProperties: { type: 'string' } },
};

/** Kinds left out of a response when they hold no value. */
const OPTIONAL_KINDS: ReadonlySet<FieldKind> = new Set<FieldKind>([
  'text',
  'email',
  'locality',
  'datetime',
  'urls',
]);

/**
 * An identity as the API returns it (identity-api-v1.md, decisions.md): a
 * field without a value is left out, never null. Its properties and their
 * documentation come from the field table; examples are the demo tenant's
 * alice.
 */
export class IdentityResponse extends shapedClass<IdentityResponseShape>() {}
for (const field of FIELD_NAMES) {
  const spec = IDENTITY_FIELDS[field];
  const document = OPTIONAL_KINDS.has(spec.kind)
    ? ApiPropertyOptional
    : ApiProperty;
  document({
    description: spec.description,
    example: spec.example,
    ...SCHEMA_OF[spec.kind],
  })(IdentityResponse.prototype, field);
}

/** An identity reduced to some fields (public view, `?fields=`). */
export type PartialIdentityResponse = Partial<IdentityResponse> & {
  identityId: string;
};

const FIELD_NAME = `(?:${FIELD_NAMES.join('|')})`;

export class IdentityQuery {
  @ApiPropertyOptional({
    description:
      'comma-separated field names, e.g. displayName,emailAddress; the response holds only those, and identityId',
    // Each name once: the service also trims spaces and takes repeats.
    pattern: `^${FIELD_NAME}(?:,${FIELD_NAME})*$`,
    maxLength: FIELD_NAMES.join(',').length,
  })
  @IsOptional()
  @IsString({ message: 'must be given once, as a comma-separated list' })
  fields?: string;
}

/** The same identity reduced by `?fields=` or to a friend's public view. */
export class ReducedIdentityResponse extends PartialType(IdentityResponse) {
  @ApiProperty({
    description: 'unique identifier of the identity; always present',
    example: 'alice',
    required: true,
    ...IDENTITY_ID_SCHEMA,
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

/** Whether `name` names a field of an identity. */
export const isIdentityField = (name: string): name is IdentityField =>
  Object.prototype.hasOwnProperty.call(IDENTITY_FIELDS, name);
