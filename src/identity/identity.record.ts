import { Prisma } from '../generated/prisma/client';
import type { IdentityRow } from '../tenants/tenant-data';

/** An identity row as stored: the import's identity plus its version. */
export type IdentityRecord = Omit<IdentityRow, 'properties'> & {
  version: bigint;
  /** JSON from the database; always an object of strings. */
  properties: unknown;
};

/**
 * The columns of an IdentityRecord from the table aliased `i`, named as its
 * fields, for raw queries that read an identity together with other facts
 * in one round trip.
 */
export const IDENTITY_RECORD_COLUMNS = Prisma.sql`
  i.identity_id AS "identityId", i.version, i.display_name AS "displayName",
  i.user_name AS "userName", i.email_address AS "emailAddress",
  i.email_addresses AS "emailAddresses",
  i.email_address_verified AS "emailAddressVerified",
  i.given_name AS "givenName", i.given_names AS "givenNames", i.surname,
  i.surnames, i.locality, i.localities, i.mobile_phone AS "mobilePhone",
  i.mobile_phone_verified AS "mobilePhoneVerified",
  i.private_personal_identifier AS "privatePersonalIdentifier",
  i.last_login AS "lastLogin", i.small_pictures AS "smallPictures",
  i.medium_pictures AS "mediumPictures", i.large_pictures AS "largePictures",
  i.user_name_password_account_user_name AS "userNamePasswordAccountUserName",
  i.old_identity_ids AS "oldIdentityIds", i.properties, i.disabled,
  i.is_archived AS "isArchived"`;

/**
 * The identity in a raw row that selected IDENTITY_RECORD_COLUMNS through an
 * outer join: null when no identity was joined.
 */
export function identityOf(row: {
  [K in keyof IdentityRecord]: IdentityRecord[K] | null;
}): IdentityRecord | null {
  if (row.identityId === null) return null;
  const identity: Record<string, unknown> = {};
  for (const key of IDENTITY_KEYS) identity[key] = row[key];
  return identity as IdentityRecord;
}

const IDENTITY_KEYS: (keyof IdentityRecord)[] = [
  'identityId',
  'version',
  'displayName',
  'userName',
  'emailAddress',
  'emailAddresses',
  'emailAddressVerified',
  'givenName',
  'givenNames',
  'surname',
  'surnames',
  'locality',
  'localities',
  'mobilePhone',
  'mobilePhoneVerified',
  'privatePersonalIdentifier',
  'lastLogin',
  'smallPictures',
  'mediumPictures',
  'largePictures',
  'userNamePasswordAccountUserName',
  'oldIdentityIds',
  'properties',
  'disabled',
  'isArchived',
];
