import { isDeepStrictEqual } from 'node:util';
import type { IdentityRecord } from '../identity/identity.record';

/**
 * The `type` and `primary` of a User's e-mail addresses, phone numbers and
 * photos (docs/scim.md, "Types and primary values"). The identity keeps the
 * values; a directory also says what kind each one is and which one it
 * prefers, and reads that back. What it said is kept beside the identity
 * (the `scim_attributes` column) when it differs from what the service
 * would say by itself, and used for as long as it still describes the
 * identity's values: a change of those values through the identity API or
 * an import makes the service's own description apply again.
 */
export interface ValueEntry {
  value: string;
  type?: string;
  primary?: boolean;
}

export const VALUE_ATTRIBUTES = ['emails', 'phoneNumbers', 'photos'] as const;
export type ValueAttribute = (typeof VALUE_ATTRIBUTES)[number];

/** Entries of each attribute, as a directory sent them or as kept. */
export type ValueAttributes = Partial<Record<ValueAttribute, ValueEntry[]>>;

type Values = Pick<
  IdentityRecord,
  | 'emailAddress'
  | 'emailAddresses'
  | 'mobilePhone'
  | 'largePictures'
  | 'smallPictures'
>;

const isThumbnail = (entry: { type?: unknown }) =>
  typeof entry.type === 'string' && entry.type.toLowerCase() === 'thumbnail';

/**
 * The entry that names the primary e-mail address: the one marked primary,
 * else the first `work` one, else the first.
 */
export function primaryEmail<T extends { type?: unknown; primary?: unknown }>(
  entries: T[],
  isPrimary: (entry: T) => boolean,
): T | undefined {
  return (
    entries.find(isPrimary) ??
    entries.find(
      (e) => typeof e.type === 'string' && e.type.toLowerCase() === 'work',
    ) ??
    entries[0]
  );
}

/** What the service says of the values by itself. */
export function computedEntries(row: Values): Required<ValueAttributes> {
  return {
    emails: row.emailAddresses.map((value) => ({
      value,
      type: value === row.emailAddress ? 'work' : 'other',
      primary: value === row.emailAddress,
    })),
    phoneNumbers: row.mobilePhone
      ? [{ value: row.mobilePhone, type: 'mobile', primary: true }]
      : [],
    photos: [
      ...row.largePictures.map((value, i) => ({
        value,
        type: 'photo',
        primary: i === 0,
      })),
      ...row.smallPictures.map((value) => ({
        value,
        type: 'thumbnail',
        primary: false,
      })),
    ],
  };
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === new Set(a).size;

/** Whether kept entries still describe exactly the identity's values. */
function describes(
  attribute: ValueAttribute,
  entries: ValueEntry[],
  row: Values,
): boolean {
  const values = entries.map((e) => e.value);
  switch (attribute) {
    case 'emails':
      return (
        sameSet(values, row.emailAddresses) &&
        primaryEmail(entries, (e) => e.primary === true)?.value ===
          (row.emailAddress ?? undefined)
      );
    case 'phoneNumbers':
      return values.length === 1 && values[0] === row.mobilePhone;
    case 'photos':
      return (
        sameSet(
          entries.filter((e) => !isThumbnail(e)).map((e) => e.value),
          row.largePictures,
        ) &&
        sameSet(
          entries.filter(isThumbnail).map((e) => e.value),
          row.smallPictures,
        )
      );
  }
}

/** The kept entries of an identity, from its column (anything else: none). */
export function keptAttributes(column: unknown): ValueAttributes {
  if (typeof column !== 'object' || column === null) return {};
  const kept: ValueAttributes = {};
  for (const attribute of VALUE_ATTRIBUTES) {
    const entries = (column as Record<string, unknown>)[attribute];
    if (Array.isArray(entries)) kept[attribute] = entries as ValueEntry[];
  }
  return kept;
}

/**
 * The entries a User shows: the service's own, each replaced by the one a
 * directory sent for the same value while what it sent still describes the
 * identity.
 */
export function valueEntries(
  row: Values,
  kept: ValueAttributes,
): Required<ValueAttributes> {
  const computed = computedEntries(row);
  const shown = { ...computed };
  for (const attribute of VALUE_ATTRIBUTES) {
    const entries = kept[attribute];
    if (!entries || !describes(attribute, entries, row)) continue;
    // A photo and a thumbnail may share a URL: they are told apart by kind.
    const key = (e: ValueEntry) =>
      attribute === 'photos' ? `${isThumbnail(e)} ${e.value}` : e.value;
    const byValue = new Map<string, ValueEntry>();
    for (const e of entries) if (!byValue.has(key(e))) byValue.set(key(e), e);
    shown[attribute] = computed[attribute].map((own) => {
      const sent = byValue.get(key(own));
      return sent
        ? {
            value: own.value,
            ...(sent.type !== undefined && { type: sent.type }),
            ...(sent.primary !== undefined && { primary: sent.primary }),
          }
        : own;
    });
  }
  return shown;
}

/**
 * What to keep of the entries a directory sent, for the identity's values
 * after its write: the attributes whose entries say something the service
 * would not say by itself.
 */
export function attributesToKeep(
  sent: Required<ValueAttributes>,
  row: Values,
): ValueAttributes {
  const computed = computedEntries(row);
  const keep: ValueAttributes = {};
  for (const attribute of VALUE_ATTRIBUTES) {
    const entries = sent[attribute];
    if (
      entries.length &&
      describes(attribute, entries, row) &&
      !isDeepStrictEqual(
        valueEntries(row, { [attribute]: entries })[attribute],
        computed[attribute],
      )
    )
      keep[attribute] = entries;
  }
  return keep;
}
