import { isDeepStrictEqual } from 'node:util';
import { withPrimary } from '../common/validation/field-rules';
import {
  EDITABLE_FIELDS,
  emptyValue,
  IDENTITY_FIELDS,
  IdentityUpdate,
  PRIMARIES,
  VERIFICATIONS,
} from './identity-fields';
import type { IdentityRecord } from './identity.record';
import { IdentityChanges } from './identity.repository';

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
  const before = current as unknown as Record<string, unknown>;
  const next: Record<string, unknown> = { ...current };
  for (const field of EDITABLE_FIELDS) {
    const value = update[field];
    if (value !== undefined)
      next[field] = value ?? emptyValue(IDENTITY_FIELDS[field].kind);
  }
  for (const [primary, list] of PRIMARIES)
    next[list] = withPrimary(
      next[primary] as string | null,
      next[list] as string[],
    );
  for (const [flag, value] of VERIFICATIONS)
    if (next[value] !== before[value]) next[flag] = false;

  const changes: Record<string, unknown> = {};
  for (const field of [
    ...EDITABLE_FIELDS,
    ...VERIFICATIONS.map(([flag]) => flag),
  ])
    if (!isDeepStrictEqual(next[field], before[field]))
      changes[field] = next[field];
  return { changes: changes as IdentityChanges, fields: Object.keys(changes) };
}
