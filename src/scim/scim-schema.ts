/**
 * Attribute definitions of RFC 7643 §7 as the /Schemas endpoint serves
 * them, every characteristic spelled out, so that a client never has to
 * guess a default.
 */
export interface ScimAttribute {
  name: string;
  type:
    | 'string'
    | 'boolean'
    | 'decimal'
    | 'integer'
    | 'dateTime'
    | 'reference'
    | 'complex';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: ScimAttribute[];
}

export interface ScimSchema {
  id: string;
  name: string;
  description: string;
  attributes: ScimAttribute[];
}

type Options = Partial<Omit<ScimAttribute, 'name' | 'type' | 'description'>>;

/** An attribute: single-valued, optional, case-insensitive, readWrite, returned by default, not unique. */
export function attribute(
  name: string,
  type: Exclude<ScimAttribute['type'], 'complex'>,
  description: string,
  options: Options = {},
): ScimAttribute {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...(type === 'reference' && { referenceTypes: ['external'] }),
    ...options,
  };
}

/** A complex attribute and its sub-attributes. */
export function complex(
  name: string,
  description: string,
  subAttributes: ScimAttribute[],
  options: Options = {},
): ScimAttribute {
  return {
    ...attribute(name, 'string', description, options),
    type: 'complex',
    subAttributes,
  };
}

/**
 * The usual sub-attributes of a multi-valued attribute (RFC 7643 §2.4): a
 * value, its type and whether it is the primary one, each kept as sent.
 */
export function multiValued(
  name: string,
  description: string,
  value: ScimAttribute,
  types: string[],
  options: Options = {},
): ScimAttribute {
  return complex(
    name,
    description,
    [
      value,
      attribute('type', 'string', 'the kind of value', {
        canonicalValues: types,
      }),
      attribute('primary', 'boolean', 'the preferred value'),
    ],
    { multiValued: true, ...options },
  );
}
