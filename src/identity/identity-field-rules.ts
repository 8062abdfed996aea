import { IsArray, IsObject, Matches } from 'class-validator';
import {
  Absent,
  IDENTITY_ID,
  IsEmailAddress,
  IsFlag,
  IsLocality,
  IsStringMap,
  IsText,
  IsTextList,
  IsUrlList,
  IsUtcDateTime,
} from '../common/validation/field-rules';
import { FIELD_NAMES, FieldKind, IDENTITY_FIELDS } from './identity-fields';

const IsList = () => IsArray({ message: 'must be an array' });

/**
 * The value rule of each kind of identity field, in decorator order: the
 * one rule a value of that kind is held to, by the import file and by a
 * PUT alike.
 */
export const FIELD_KIND_RULES: Record<FieldKind, PropertyDecorator[]> = {
  id: [
    IsText(),
    Matches(IDENTITY_ID, { message: `must match ${IDENTITY_ID}` }),
  ],
  text: [IsText()],
  email: [IsEmailAddress()],
  locality: [IsLocality()],
  datetime: [IsUtcDateTime()],
  flag: [IsFlag()],
  texts: [IsTextList()],
  emails: [IsList(), IsEmailAddress({ each: true })],
  localities: [IsList(), IsLocality({ each: true })],
  urls: [IsUrlList()],
  properties: [IsObject({ message: 'must be an object' }), IsStringMap()],
};

/**
 * Puts each field of the field table, with its kind's rule, on a class's
 * properties (each optional), then `more` (more properties and their rules),
 * as decorators written on them would be.
 */
export function withFieldRules(
  target: abstract new () => object,
  more: [string, PropertyDecorator[]][] = [],
): void {
  for (const [field, rules] of [
    ...FIELD_NAMES.map(
      (f) => [f, FIELD_KIND_RULES[IDENTITY_FIELDS[f].kind]] as const,
    ),
    ...more,
  ])
    // Applied as decorators would be: the last one written first.
    for (const rule of [Absent(), ...rules].reverse())
      rule(target.prototype as object, field);
}

/** Every field of an identity, each held to its kind's rule when present. */
export class IdentityValueRules {}
withFieldRules(IdentityValueRules);
