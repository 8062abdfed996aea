import type { IdentityFieldValues } from './identity-fields';

/** An identity row as stored: its fields and its version. */
export type IdentityRecord = IdentityFieldValues & { version: bigint };
