import { IsOptional, IsString } from 'class-validator';

/** An identity as the API returns it (identity-api-v1.md, decisions.md). */
export interface IdentityResponse {
  identityId: string;
  disabled: boolean;
  isArchived: boolean;
  displayName?: string;
  userName?: string;
  emailAddress?: string;
  emailAddresses: string[];
  emailAddressVerified: boolean;
  givenName?: string;
  givenNames: string[];
  surname?: string;
  surnames: string[];
  locality?: string;
  localities: string[];
  mobilePhone?: string;
  mobilePhoneVerified: boolean;
  privatePersonalIdentifier?: string;
  lastLogin?: string;
  smallPictures?: string[];
  mediumPictures?: string[];
  largePictures?: string[];
  userNamePasswordAccountUserName?: string;
  oldIdentityIds: string[];
  properties: Record<string, string>;
}

export type IdentityField = keyof IdentityResponse;

/** An identity reduced to some fields (public view, `?fields=`). */
export type PartialIdentityResponse = Partial<IdentityResponse> & {
  identityId: string;
};

export class IdentityQuery {
  /** Comma-separated field names; the response holds only those (and identityId). */
  @IsOptional()
  @IsString({ message: 'must be given once, as a comma-separated list' })
  fields?: string;
}

/** Fields a PUT may set; `null` clears one. */
export const EDITABLE_FIELDS = [
  'displayName',
  'userName',
  'givenName',
  'givenNames',
  'surname',
  'surnames',
  'locality',
  'localities',
  'mobilePhone',
  'emailAddress',
  'emailAddresses',
  'smallPictures',
  'mediumPictures',
  'largePictures',
  'properties',
] as const;

/** Fields a client sees but may not set. */
export const READ_ONLY_FIELDS = [
  'identityId',
  'disabled',
  'isArchived',
  'emailAddressVerified',
  'mobilePhoneVerified',
  'lastLogin',
  'oldIdentityIds',
  'privatePersonalIdentifier',
  'userNamePasswordAccountUserName',
] as const;

export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** A validated PUT body: only editable fields, each a value or null. */
export type IdentityUpdate = {
  [K in EditableField]?:
    | (K extends 'properties' ? Record<string, string> : IdentityResponse[K])
    | null;
};
