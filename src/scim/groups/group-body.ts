import { InvalidRequest } from '../../common/errors';

export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** Group attributes a client may write, by their lower-case names. */
export const WRITABLE = {
  displayname: 'displayName',
  externalid: 'externalId',
  members: 'members',
} as const;

/** Attributes a client may send back as it read them; a write ignores them. */
const READ_ONLY = new Set(['id', 'meta', 'schemas']);

const MAX_NAME = 512;

/** A Group as a POST or PUT body gives it. */
export interface GroupBody {
  displayName: string;
  externalId: string | null;
  /** Identity ids, in the order given, without repeats. */
  members: string[];
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a POST or PUT body. Attribute names are case-insensitive (RFC 7643
 * §2.1); extension attributes (keys that are schema URNs) and read-only
 * attributes are ignored; anything else unknown is refused, so that no
 * value a client sends is silently dropped.
 */
export function readGroupBody(body: unknown): GroupBody {
  if (!isObject(body))
    throw new InvalidRequest(
      'The body must be a JSON object.',
      undefined,
      'invalidSyntax',
    );
  const values: Partial<Record<keyof typeof WRITABLE, unknown>> = {};
  for (const [key, value] of Object.entries(body)) {
    const name = key.toLowerCase();
    if (name in WRITABLE) values[name as keyof typeof WRITABLE] = value;
    else if (!READ_ONLY.has(name) && !name.startsWith('urn:'))
      throw new InvalidRequest(
        `"${key}" is not an attribute of a Group.`,
        undefined,
        'invalidSyntax',
      );
  }
  return {
    displayName: readDisplayName(values.displayname),
    externalId: readExternalId(values.externalid),
    members: values.members == null ? [] : readMembers(values.members),
  };
}

export function readDisplayName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new InvalidRequest('displayName must be a non-empty string.');
  if (value.length > MAX_NAME)
    throw new InvalidRequest(
      `displayName must be at most ${MAX_NAME} characters.`,
    );
  return value;
}

export function readExternalId(value: unknown): string | null {
  if (value == null) return null;
  if (typeof value !== 'string' || value.length > MAX_NAME)
    throw new InvalidRequest(
      `externalId must be a string of at most ${MAX_NAME} characters.`,
    );
  return value;
}

/** Member ids from `[{ "value": id, … }]` (a lone object is read as a list of one). */
export function readMembers(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const ids = list.map((member) => {
    const id = isObject(member) ? member.value : undefined;
    if (typeof id !== 'string' || id === '')
      throw new InvalidRequest(
        'Each member must be an object with a string "value", the id of a User.',
      );
    return id;
  });
  return [...new Set(ids)];
}
