import {
  formatUtcDateTime,
  setNonEmpty,
  setPresent,
} from '../common/representation';
import {
  IdentityField,
  IdentityResponse,
  PartialIdentityResponse,
} from './identity.dto';
import { IdentityRecord } from './identity.record';

/** What a friend may see of an identity (decisions.md, Authorization). */
export const PUBLIC_FIELDS: ReadonlySet<IdentityField> = new Set<IdentityField>(
  [
    'identityId',
    'displayName',
    'userName',
    'givenName',
    'givenNames',
    'surname',
    'surnames',
    'locality',
    'localities',
    'smallPictures',
    'mediumPictures',
    'largePictures',
    'disabled',
    'isArchived',
  ],
);

/** Every field an identity response can hold, for `?fields=`. */
export const IDENTITY_FIELDS: ReadonlySet<IdentityField> =
  new Set<IdentityField>([
    'disabled',
    'displayName',
    'emailAddress',
    'emailAddresses',
    'emailAddressVerified',
    'givenName',
    'givenNames',
    'identityId',
    'isArchived',
    'largePictures',
    'mediumPictures',
    'smallPictures',
    'lastLogin',
    'locality',
    'localities',
    'mobilePhone',
    'mobilePhoneVerified',
    'oldIdentityIds',
    'privatePersonalIdentifier',
    'properties',
    'surname',
    'surnames',
    'userName',
    'userNamePasswordAccountUserName',
  ]);

/** The whole identity as its owner, an admin or a reading app sees it. */
export function toIdentityResponse(row: IdentityRecord): IdentityResponse {
  const body: IdentityResponse = {
    identityId: row.identityId,
    disabled: row.disabled,
    isArchived: row.isArchived,
    emailAddresses: row.emailAddresses,
    emailAddressVerified: row.emailAddressVerified,
    givenNames: row.givenNames,
    surnames: row.surnames,
    localities: row.localities,
    mobilePhoneVerified: row.mobilePhoneVerified,
    oldIdentityIds: row.oldIdentityIds,
    properties: (row.properties ?? {}) as Record<string, string>,
  };
  setPresent(body, 'displayName', row.displayName);
  setPresent(body, 'userName', row.userName);
  setPresent(body, 'emailAddress', row.emailAddress);
  setPresent(body, 'givenName', row.givenName);
  setPresent(body, 'surname', row.surname);
  setPresent(body, 'locality', row.locality);
  setPresent(body, 'mobilePhone', row.mobilePhone);
  setPresent(body, 'privatePersonalIdentifier', row.privatePersonalIdentifier);
  setPresent(
    body,
    'lastLogin',
    row.lastLogin && formatUtcDateTime(row.lastLogin),
  );
  setNonEmpty(body, 'smallPictures', row.smallPictures);
  setNonEmpty(body, 'mediumPictures', row.mediumPictures);
  setNonEmpty(body, 'largePictures', row.largePictures);
  setPresent(
    body,
    'userNamePasswordAccountUserName',
    row.userNamePasswordAccountUserName,
  );
  return body;
}

/** Keeps the named fields of a response, and identityId always. */
export function pickFields(
  body: IdentityResponse,
  fields: ReadonlySet<IdentityField>,
): PartialIdentityResponse {
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body))
    if (key === 'identityId' || fields.has(key as IdentityField))
      picked[key] = value;
  return picked as PartialIdentityResponse;
}
