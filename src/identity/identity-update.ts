import { isDeepStrictEqual } from 'node:util';
import { withPrimary } from '../common/validation/field-rules';
import { EDITABLE_FIELDS, IdentityUpdate, LIST_FIELDS } from './identity.dto';
import type { IdentityRecord } from './identity.record';
import { IdentityChanges } from './identity.repository';

/** Primary values and their lists, kept consistent after every update. */
const PRIMARIES = [
  ['emailAddress', 'emailAddresses'],
  ['givenName', 'givenNames'],
  ['surname', 'surnames'],
  ['locality', 'localities'],
] as const;

/**
 * Applies a PUT body to the current identity (decisions.md): left-out fields
 * keep their value, `null` clears, `properties` is replaced whole, a primary
 * value stays a member of its list, and a changed e-mail address or mobile
 * phone is no longer verified. Returns only what differs, with its names.
 */
export function applyUpdate(
  current: IdentityRecord,
  update: IdentityUpdate,
): { changes: IdentityChanges; fields: string[] } {
  const next: IdentityRecord = { ...current };
  const target = next as unknown as Record<string, unknown>;
  for (const field of EDITABLE_FIELDS) {
    const value = update[field];
    if (value === undefined) continue;
    target[field] =
      value ??
      (field === 'properties' ? {} : LIST_FIELDS.has(field) ? [] : null);
  }
  for (const [primary, list] of PRIMARIES)
    next[list] = withPrimary(next[primary], next[list]);
  if (next.emailAddress !== current.emailAddress)
    next.emailAddressVerified = false;
  if (next.mobilePhone !== current.mobilePhone)
    next.mobilePhoneVerified = false;

  const changes: Record<string, unknown> = {};
  const before = current as unknown as Record<string, unknown>;
  for (const field of [
    ...EDITABLE_FIELDS,
    'emailAddressVerified',
    'mobilePhoneVerified',
  ])
    if (!isDeepStrictEqual(target[field], before[field]))
      changes[field] = target[field];
  return { changes: changes as IdentityChanges, fields: Object.keys(changes) };
}
