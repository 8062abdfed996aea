import {
  ArrayMaxSize,
  IsOptional,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import {
  EDITABLE_FIELDS,
  IDENTITY_FIELDS,
  LIST_KINDS,
} from './identity-fields';

export const MAX_TEXT = 512;
export const MAX_ITEMS = 50;
export const MAX_PROPERTIES = 100;

/**
 * The size limits of a PUT body (decisions.md). The value rules are the
 * import format's own (IdentityRecord); these only bound the sizes.
 */
export class IdentityUpdateLimits {}

const proto = IdentityUpdateLimits.prototype;
for (const field of EDITABLE_FIELDS) {
  IsOptional()(proto, field);
  if (field === 'properties') continue;
  if (LIST_KINDS.has(IDENTITY_FIELDS[field].kind)) {
    ArrayMaxSize(MAX_ITEMS, {
      message: `must have at most ${MAX_ITEMS} items`,
    })(proto, field);
    MaxLength(MAX_TEXT, {
      each: true,
      message: `each item must be at most ${MAX_TEXT} characters`,
    })(proto, field);
  } else
    MaxLength(MAX_TEXT, { message: `must be at most ${MAX_TEXT} characters` })(
      proto,
      field,
    );
}
ValidateBy(
  {
    name: 'propertyLimits',
    validator: {
      validate: (value: Record<string, string>) =>
        Object.keys(value).length <= MAX_PROPERTIES &&
        Object.entries(value).every(
          ([k, v]) => k.length <= MAX_TEXT && v.length <= MAX_TEXT,
        ),
    },
  },
  {
    message: `must have at most ${MAX_PROPERTIES} properties, each name and value at most ${MAX_TEXT} characters`,
  },
)(proto, 'properties');
