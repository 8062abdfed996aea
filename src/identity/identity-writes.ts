import { sql } from 'kysely';

/**
 * The version of a write: the next number of `identity_version_seq`, which
 * orders every write of an identity (and of a role, which shares it), so
 * that a version names one state and ETags, If-Match and the change log's
 * order follow from it.
 */
export const NEXT_VERSION = sql<bigint>`nextval('identity_version_seq')`;

/**
 * What every write of an identity or a role sets besides its changes: a
 * new version and the time. The write appends its event in the same
 * statement (eventsOf) or transaction (appendEvents). The only place the
 * sequence is named; src/architecture.spec.ts holds every write to it.
 */
export const WRITTEN = {
  version: NEXT_VERSION,
  updated_at: sql<Date>`now()`,
};
