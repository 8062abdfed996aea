import { InvalidRequest } from '../common/errors';
import {
  FieldKind,
  FieldSpec,
  IDENTITY_FIELDS,
  IdentityField,
} from '../identity/identity-fields';
import { Prisma } from '../generated/prisma/client';
import { MAX_ITEMS, MAX_PROPERTIES } from '../identity/identity-update.rules';
import type { Filterable, FilterAttributes } from './scim-filter-attributes';
import { attribute, complex, ScimAttribute } from './scim-schema';

/**
 * SCIM's view of the identity field table (identity-fields.ts). A field
 * whose entry names no core User attribute (`scim`) is an attribute of the
 * identity extension under its own name: its schema, its representation,
 * how a write reads it, whether it is read-only and how a filter compares
 * it all follow from its kind here, so a field added to the table appears
 * in SCIM with no SCIM code written.
 */
export const EXTENSION_FIELDS = (
  Object.entries(IDENTITY_FIELDS) as [IdentityField, FieldSpec][]
).filter(([, spec]) => spec.scim === undefined);

const LISTS: ReadonlySet<FieldKind> = new Set([
  'texts',
  'emails',
  'localities',
  'urls',
]);

/**
 * The SCIM type of an extension attribute of each kind, and how a filter
 * compares it; properties, a complex attribute, are not filtered.
 */
const SIMPLE_KINDS: Record<
  Exclude<FieldKind, 'properties'>,
  {
    type: Exclude<ScimAttribute['type'], 'complex'>;
    filter: Filterable['kind'];
  }
> = {
  id: { type: 'string', filter: 'text' },
  text: { type: 'string', filter: 'text' },
  email: { type: 'string', filter: 'text' },
  locality: { type: 'string', filter: 'text' },
  datetime: { type: 'dateTime', filter: 'time' },
  flag: { type: 'boolean', filter: 'flag' },
  texts: { type: 'string', filter: 'texts' },
  emails: { type: 'string', filter: 'texts' },
  localities: { type: 'string', filter: 'texts' },
  urls: { type: 'reference', filter: 'texts' },
};

const invalid = (detail: string) => new InvalidRequest(detail);

/** The extension attribute of a field, every characteristic from its entry. */
export function fieldAttribute(name: string, spec: FieldSpec): ScimAttribute {
  const options = {
    multiValued: LISTS.has(spec.kind),
    caseExact: spec.caseExact ?? spec.kind === 'id',
    mutability: spec.editable ? 'readWrite' : 'readOnly',
  } as const;
  if (spec.kind === 'properties')
    return complex(
      name,
      spec.description,
      [
        attribute('name', 'string', 'the name of the property', {
          required: true,
          caseExact: true,
        }),
        attribute('value', 'string', 'its value', {
          required: true,
          caseExact: true,
        }),
      ],
      { ...options, multiValued: true },
    );
  return attribute(
    name,
    SIMPLE_KINDS[spec.kind].type,
    spec.description,
    options,
  );
}

/**
 * A field's value as the extension shows it, or undefined to leave it out:
 * a single value without one, pictures when there are none.
 */
export function renderField(kind: FieldKind, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (kind === 'datetime') return (value as Date).toISOString();
  if (kind === 'properties')
    return Object.entries(value as Record<string, string>).map(
      ([name, text]) => ({ name, value: text }),
    );
  if (kind === 'urls' && (value as string[]).length === 0) return undefined;
  return value;
}

/**
 * A field's new value from a written extension (POST, PUT, a PATCH's
 * result): absent is empty, as a PUT of the whole extension means. Its
 * rules (lengths, forms) are the identity API's, checked after.
 */
export function readField(kind: FieldKind, value: unknown, name: string) {
  if (kind === 'properties') return properties(value, name);
  if (LISTS.has(kind)) return strings(value, name);
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalid(`${name} must be a string.`);
  return value;
}

// Lists are bounded before their values are read, so that a body's cost
// stays proportional to what may be kept.
function strings(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.length > MAX_ITEMS)
    throw invalid(`${name} must have at most ${MAX_ITEMS} items.`);
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw invalid(`${name} must be an array of strings.`);
  return value;
}

function properties(value: unknown, name: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_PROPERTIES)
    throw invalid(`${name} must have at most ${MAX_PROPERTIES} items.`);
  const read: Record<string, string> = {};
  list.forEach((entry: unknown, i) => {
    const { name: key, value: text } = (
      typeof entry === 'object' && entry !== null ? entry : {}
    ) as Record<string, unknown>;
    if (typeof key !== 'string' || typeof text !== 'string' || !key || !text)
      throw invalid(`${name}[${i}] needs a name and a value.`);
    read[key] = text;
  });
  return read;
}

/** How a filter compares each extension field, by its full lower-case path. */
export function extensionFilters(urn: string): FilterAttributes {
  const filters: FilterAttributes = {};
  for (const [name, spec] of EXTENSION_FIELDS) {
    if (spec.kind === 'properties') continue;
    filters[`${urn}:${name}`.toLowerCase()] = {
      sql: Prisma.raw(`i.${spec.column}`),
      kind: SIMPLE_KINDS[spec.kind].filter,
      caseExact: spec.caseExact ?? spec.kind === 'id',
    };
  }
  return filters;
}
