import type { SchemaObject as NestSchemaObject } from '@nestjs/swagger';
import { LOCALITY, STORABLE_TEXT } from '../common/validation/field-rules';
import {
  EDITABLE_FIELDS,
  EditableField,
  EditableKind,
  IDENTITY_FIELDS,
} from './identity-fields';
import { MAX_ITEMS, MAX_PROPERTIES, MAX_TEXT } from './identity-update.rules';

/** OpenAPI 3.1 schemas; @nestjs/swagger's type predates propertyNames. */
type SchemaObject = NestSchemaObject & { propertyNames?: SchemaObject };

// The values a PUT takes, as the import format's rules check them
// (IdentityRecord) within the PUT's size limits (identity-update.rules.ts).
const TEXT = {
  type: 'string',
  maxLength: MAX_TEXT,
  pattern: STORABLE_TEXT.source,
} as const;
const EMAIL = { type: 'string', maxLength: MAX_TEXT, format: 'email' } as const;
const URL = {
  type: 'string',
  maxLength: MAX_TEXT,
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
} as const;
const LOCALE = {
  type: 'string',
  maxLength: MAX_TEXT,
  pattern: LOCALITY.source,
} as const;

const nullable = (schema: SchemaObject): SchemaObject => ({
  ...schema,
  type: [schema.type as string, 'null'],
});
const list = (item: SchemaObject): SchemaObject =>
  nullable({ type: 'array', maxItems: MAX_ITEMS, items: item });

/** The value a PUT sets, by kind of field (editable kinds only). */
const VALUE_OF: Record<EditableKind, SchemaObject> = {
  text: nullable(TEXT),
  email: nullable(EMAIL),
  locality: nullable(LOCALE),
  texts: list(TEXT),
  emails: list(EMAIL),
  localities: list(LOCALE),
  urls: list(URL),
  properties: nullable({
    type: 'object',
    maxProperties: MAX_PROPERTIES,
    propertyNames: TEXT,
    additionalProperties: TEXT,
  }),
};

const VALUES = Object.fromEntries(
  EDITABLE_FIELDS.map((field) => [
    field,
    VALUE_OF[IDENTITY_FIELDS[field].kind as EditableKind],
  ]),
) as Record<EditableField, SchemaObject>;

/** The PUT body in OpenAPI terms: every editable field, each nullable. */
export const UPDATE_BODY_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: VALUES,
  example: {
    displayName: 'Robert Lee',
    surname: null,
    properties: { team: 'Platform' },
  },
};
