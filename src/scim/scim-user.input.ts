import { InvalidRequest } from '../common/errors';
import { PRIMARIES, type IdentityUpdate } from '../identity/identity-fields';
import type { IdentityRecord } from '../identity/identity.record';
import { MAX_ITEMS, MAX_TEXT } from '../identity/identity-update.rules';
import { UpdateIdentityPipe } from '../identity/update-identity.pipe';
import { EXTENSION_FIELDS, readField } from './scim-fields';
import { IDENTITY_EXTENSION } from './scim-schemas';
import {
  primaryEmail as primaryOf,
  type ValueAttributes,
  type ValueEntry,
} from './scim-value-attributes';

/** What a SCIM User asks of its identity. */
export interface UserInput {
  /** The editable fields, each a value or null (cleared). */
  update: IdentityUpdate;
  disabled: boolean;
  externalId: string | null;
  /** The type and primary the User gives its kept values (scim-value-attributes). */
  described: Required<ValueAttributes>;
}

/** The longest `type` kept: canonical values are single words. */
export const MAX_TYPE = 64;

type Json = Record<string, unknown>;

const invalid = (detail: string) => new InvalidRequest(detail);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string attribute, or null when it is absent. */
function text(value: unknown, name: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalid(`${name} must be a string.`);
  return value;
}

/**
 * A boolean attribute. Entra ID sends "True" and "False" as strings, so
 * those are read as the booleans they mean.
 */
function flag(value: unknown, name: string, absent: boolean): boolean {
  if (value === undefined || value === null) return absent;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value))
    return value.toLowerCase() === 'true';
  throw invalid(`${name} must be true or false.`);
}

/**
 * A list no longer than `max`, checked before anything is done with its
 * values, so that a body's cost stays proportional to what may be kept.
 */
function bounded(list: unknown[], name: string, max = MAX_ITEMS) {
  if (list.length > max)
    throw invalid(`${name} must have at most ${max} items.`);
  return list;
}

/** A multi-valued complex attribute: its entries, each an object. */
function entries(value: unknown, name: string, max = MAX_ITEMS): Json[] {
  if (value === undefined || value === null) return [];
  const list = bounded(Array.isArray(value) ? value : [value], name, max);
  if (!list.every(isObject))
    throw invalid(`${name} must be an array of objects.`);
  return list;
}

const values = (list: Json[], name: string) =>
  list
    .map((entry, i) => text(entry.value, `${name}[${i}].value`))
    .filter((v): v is string => v !== null);

const typed = (list: Json[], type: string) =>
  list.filter(
    (e) => typeof e.type === 'string' && e.type.toLowerCase() === type,
  );

/**
 * An entry with a value as the User describes it: its `type` (a string of
 * at most MAX_TYPE characters) and `primary` when it has them. A second
 * entry marked primary is not the primary one (RFC 7643 §2.4).
 */
function described(list: Json[], name: string, primary?: Json): ValueEntry[] {
  const seen = new Set<string>();
  const kept: ValueEntry[] = [];
  list.forEach((entry, i) => {
    const value = text(entry.value, `${name}[${i}].value`);
    const type = text(entry.type, `${name}[${i}].type`);
    if (type !== null && type.length > MAX_TYPE)
      throw invalid(
        `${name}[${i}].type must be at most ${MAX_TYPE} characters.`,
      );
    const marked =
      entry.primary === undefined || entry.primary === null
        ? undefined
        : flag(entry.primary, `${name}[${i}].primary`, false);
    const key = `${typed([entry], 'thumbnail').length} ${value}`;
    if (value === null || seen.has(key)) return;
    seen.add(key);
    kept.push({
      value,
      ...(type !== null && { type }),
      ...(marked !== undefined && {
        primary: marked && (primary === undefined || entry === primary),
      }),
    });
  });
  return kept;
}

/**
 * The extension's editable attributes, when the resource has the extension
 * at all: each field of the table the core schema does not show.
 */
function extension(resource: Json): IdentityUpdate {
  const ext = resource[IDENTITY_EXTENSION];
  if (ext === undefined) return {};
  if (!isObject(ext)) throw invalid(`${IDENTITY_EXTENSION} must be an object.`);
  const update: Record<string, unknown> = {};
  for (const [field, spec] of EXTENSION_FIELDS)
    if (spec.editable) update[field] = readField(spec.kind, ext[field], field);
  return update as IdentityUpdate;
}

/**
 * The identity a whole SCIM User describes (POST, PUT, and a PATCH's
 * result), checked with the identity API's own value rules. Attributes of
 * other schemas are ignored; the extension's attributes are replaced only
 * when the resource carries the extension, so that a client that does not
 * know it leaves them alone. With `current`, only the fields that differ
 * from it are in the update and checked: a value the identity already has
 * (one an import allowed, say) never stops a directory from changing
 * another, such as deactivating the user.
 */
export function fromScimUser(
  resource: unknown,
  userNameRequired = true,
  current?: IdentityRecord,
): UserInput {
  if (!isObject(resource)) throw invalid('The body must be a JSON object.');
  const userName = text(resource.userName, 'userName');
  if (userName === null && userNameRequired)
    throw invalid('userName is required.');
  const name = resource.name ?? {};
  if (!isObject(name)) throw invalid('name must be an object.');
  const emails = entries(resource.emails, 'emails');
  const emailValues = values(emails, 'emails');
  const primaryEmail = primaryOf(emails, (e) =>
    flag(e.primary, 'emails.primary', false),
  );
  const mobile = typed(
    entries(resource.phoneNumbers, 'phoneNumbers'),
    'mobile',
  ).filter((e) => text(e.value, 'phoneNumbers.value') !== null)[0];
  const photos = entries(resource.photos, 'photos', 2 * MAX_ITEMS);
  const thumbnails = typed(photos, 'thumbnail');
  const update: IdentityUpdate = {
    userName,
    displayName: text(resource.displayName, 'displayName'),
    givenName: text(name.givenName, 'name.givenName'),
    surname: text(name.familyName, 'name.familyName'),
    locality: text(resource.locale, 'locale'),
    emailAddress: primaryEmail
      ? text(primaryEmail.value, 'emails.value')
      : null,
    emailAddresses: emailValues,
    mobilePhone: mobile ? text(mobile.value, 'phoneNumbers.value') : null,
    largePictures: values(
      photos.filter((p) => !thumbnails.includes(p)),
      'photos',
    ),
    smallPictures: values(thumbnails, 'photos'),
    ...extension(resource),
  };
  const externalId = text(resource.externalId, 'externalId');
  if (
    externalId !== null &&
    externalId !== current?.externalId &&
    externalId.length > MAX_TEXT
  )
    throw invalid(`externalId must be at most ${MAX_TEXT} characters.`);
  if (current) {
    for (const field of Object.keys(update) as (keyof IdentityUpdate)[])
      if (same(update[field], current[field])) delete update[field];
    // A list written without its primary value (givenNames without the
    // givenName of name) is the whole list: its first value becomes the
    // primary one, rather than the old primary staying in front of it.
    for (const [primary, list] of PRIMARIES) {
      const values = update[list as keyof IdentityUpdate] as
        string[] | null | undefined;
      const kept = current[primary] as string | null;
      if (
        values !== undefined &&
        update[primary as keyof IdentityUpdate] === undefined &&
        kept !== null &&
        !(values ?? []).includes(kept)
      )
        (update as Record<string, unknown>)[primary] = values?.[0] ?? null;
    }
  }
  return {
    update: new UpdateIdentityPipe().transform(update),
    disabled: !flag(resource.active, 'active', true),
    externalId,
    described: {
      emails: described(emails, 'emails', primaryEmail),
      phoneNumbers: mobile ? described([mobile], 'phoneNumbers') : [],
      photos: described(photos, 'photos'),
    },
  };
}

/** Whether a field's new value is the one the identity has (null and [] as absent alike). */
const same = (next: unknown, now: unknown) =>
  JSON.stringify(next ?? null) === JSON.stringify(now ?? null);
