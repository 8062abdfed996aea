import { InvalidRequest } from '../common/errors';
import type { IdentityUpdate } from '../identity/identity-fields';
import { MAX_TEXT } from '../identity/identity-update.rules';
import { UpdateIdentityPipe } from '../identity/update-identity.pipe';
import { IDENTITY_EXTENSION } from './scim-schemas';

/** What a SCIM User asks of its identity. */
export interface UserInput {
  /** The editable fields, each a value or null (cleared). */
  update: IdentityUpdate;
  disabled: boolean;
  externalId: string | null;
}

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

/** A multi-valued complex attribute: its entries, each an object. */
function entries(value: unknown, name: string): Json[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
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

function strings(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw invalid(`${name} must be an array of strings.`);
  return value;
}

/** The extension's attributes, when the resource has the extension at all. */
function extension(resource: Json): IdentityUpdate {
  const ext = resource[IDENTITY_EXTENSION];
  if (ext === undefined) return {};
  if (!isObject(ext)) throw invalid(`${IDENTITY_EXTENSION} must be an object.`);
  const properties: Record<string, string> = {};
  entries(ext.properties, 'properties').forEach((p, i) => {
    const name = text(p.name, `properties[${i}].name`);
    const value = text(p.value, `properties[${i}].value`);
    if (name === null || value === null)
      throw invalid(`properties[${i}] needs a name and a value.`);
    properties[name] = value;
  });
  return {
    givenNames: strings(ext.givenNames, 'givenNames'),
    surnames: strings(ext.surnames, 'surnames'),
    localities: strings(ext.localities, 'localities'),
    mediumPictures: strings(ext.mediumPictures, 'mediumPictures'),
    properties,
  };
}

/**
 * The identity a whole SCIM User describes (POST, PUT, and a PATCH's
 * result), checked with the identity API's own value rules. Attributes of
 * other schemas are ignored; the extension's attributes are replaced only
 * when the resource carries the extension, so that a client that does not
 * know it leaves them alone.
 */
export function fromScimUser(
  resource: unknown,
  userNameRequired = true,
): UserInput {
  if (!isObject(resource)) throw invalid('The body must be a JSON object.');
  const userName = text(resource.userName, 'userName');
  if (userName === null && userNameRequired)
    throw invalid('userName is required.');
  const name = resource.name ?? {};
  if (!isObject(name)) throw invalid('name must be an object.');
  const emails = entries(resource.emails, 'emails');
  const emailValues = values(emails, 'emails');
  const primaryEmail =
    emails.find((e) => flag(e.primary, 'emails.primary', false)) ??
    typed(emails, 'work')[0] ??
    emails[0];
  const photos = entries(resource.photos, 'photos');
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
    mobilePhone:
      values(
        typed(entries(resource.phoneNumbers, 'phoneNumbers'), 'mobile'),
        'phoneNumbers',
      )[0] ?? null,
    largePictures: values(
      photos.filter((p) => !thumbnails.includes(p)),
      'photos',
    ),
    smallPictures: values(thumbnails, 'photos'),
    ...extension(resource),
  };
  const externalId = text(resource.externalId, 'externalId');
  if (externalId !== null && externalId.length > MAX_TEXT)
    throw invalid(`externalId must be at most ${MAX_TEXT} characters.`);
  return {
    update: new UpdateIdentityPipe().transform(update),
    disabled: !flag(resource.active, 'active', true),
    externalId,
  };
}
