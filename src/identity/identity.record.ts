import { Prisma } from '../generated/prisma/client';
import type { IdentityRow } from '../tenants/tenant-data';

/** An identity row as stored: the import's identity plus its version. */
export type IdentityRecord = Omit<IdentityRow, 'properties'> & {
  version: bigint;
  /** JSON from the database; always an object of strings. */
  properties: unknown;
};

/** A raw row's columns from an outer join: each may be null. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };

/** The column of each field of an IdentityRecord. */
export const IDENTITY_COLUMN = {
  identityId: 'identity_id',
  version: 'version',
  displayName: 'display_name',
  userName: 'user_name',
  emailAddress: 'email_address',
  emailAddresses: 'email_addresses',
  emailAddressVerified: 'email_address_verified',
  givenName: 'given_name',
  givenNames: 'given_names',
  surname: 'surname',
  surnames: 'surnames',
  locality: 'locality',
  localities: 'localities',
  mobilePhone: 'mobile_phone',
  mobilePhoneVerified: 'mobile_phone_verified',
  privatePersonalIdentifier: 'private_personal_identifier',
  lastLogin: 'last_login',
  smallPictures: 'small_pictures',
  mediumPictures: 'medium_pictures',
  largePictures: 'large_pictures',
  userNamePasswordAccountUserName: 'user_name_password_account_user_name',
  oldIdentityIds: 'old_identity_ids',
  properties: 'properties',
  disabled: 'disabled',
  isArchived: 'is_archived',
} as const satisfies Record<keyof IdentityRecord, string>;

const IDENTITY_KEYS = Object.keys(IDENTITY_COLUMN) as (keyof IdentityRecord)[];

/**
 * The columns of an IdentityRecord from the table aliased `i`, named as its
 * fields, for raw queries that read an identity together with other facts
 * in one round trip.
 */
export const IDENTITY_RECORD_COLUMNS = Prisma.raw(
  IDENTITY_KEYS.map((key) => `i.${IDENTITY_COLUMN[key]} AS "${key}"`).join(
    ', ',
  ),
);

/**
 * The identity in a raw row that selected IDENTITY_RECORD_COLUMNS through an
 * outer join: null when no identity was joined.
 */
export function identityOf(
  row: Nullable<IdentityRecord>,
): IdentityRecord | null {
  if (row.identityId === null) return null;
  const identity: Record<string, unknown> = {};
  for (const key of IDENTITY_KEYS) identity[key] = row[key];
  return identity as IdentityRecord;
}
