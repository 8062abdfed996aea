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
