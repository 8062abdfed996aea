import { isEmail } from 'class-validator';
import type { JWTPayload } from 'jose';
import {
  IDENTITY_ID,
  isHttpUrl,
  isStorableText,
  RESERVED_IDENTITY_IDS,
} from '../common/validation/field-rules';
import {
  IdentityField,
  IdentityFieldValues,
  PRIMARIES,
  VERIFICATIONS,
} from '../identity/identity-fields';
import { MAX_TEXT } from '../identity/identity-update.rules';

// What a sign-in's OpenID Connect claims say about an identity
// (docs/api.md, Just-in-time identities). A claim that does not fit its
// field is left out, never an error: the token stays valid.

/** The fields a just-in-time identity gets from its claims; the rest stay empty. */
export type ClaimedFields = Partial<Omit<IdentityFieldValues, 'identityId'>>;

/** The account a just-in-time identity gets at the issuer's provider. */
export interface ClaimedAccount {
  accountId: string;
  accountProviderId: string;
  issuedUserId: string;
  displayName: string | null;
  emailAddress: string | null;
  pictureUrl: string | null;
}

/** A number of digits, with the separators E.164's written forms use, and an RFC 3966 extension. */
const PHONE = /^\+?[0-9 ().-]+(;ext=[0-9]+)?$/;
const PHONE_DIGITS = { min: 3, max: 15 };
/** A language, an optional script and a region: `en-US`, `en_us`, `zh-Hant-TW`. */
const LOCALE = /^([a-z]{2})(?:[-_][a-z]{4})?[-_]([a-z]{2})$/i;

/** A claim's value as an identifier: non-empty storable text within the text limit. */
export const claimedId = (value: unknown): string | undefined =>
  typeof value === 'string' &&
  value !== '' &&
  value.length <= MAX_TEXT &&
  isStorableText(value)
    ? value
    : undefined;

/** A claim's value as text of a field: an identifier's rule, and not blank. */
const text = (value: unknown) => {
  const given = claimedId(value);
  return given?.trim() ? given : undefined;
};

const email = (value: unknown) => {
  const address = text(value);
  return address !== undefined && isEmail(address) ? address : undefined;
};

/** Whether a claim's value is an e-mail address an identity can hold. */
export const isClaimedEmail = (value: unknown): boolean =>
  email(value) !== undefined;

const phone = (value: unknown) => {
  const number = text(value);
  if (number === undefined || !PHONE.test(number)) return undefined;
  const digits = number.split(';')[0].replace(/[^0-9]/g, '').length;
  return digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max
    ? number
    : undefined;
};

/** `xx-XX` from a locale that names a language and a region; a bare language is not guessed at. */
export const locality = (value: unknown) => {
  const match = typeof value === 'string' ? LOCALE.exec(value) : null;
  return match
    ? `${match[1].toLowerCase()}-${match[2].toUpperCase()}`
    : undefined;
};

const url = (value: unknown) => {
  const address = text(value);
  return address !== undefined && isHttpUrl(address) ? address : undefined;
};

/** Whether a subject can name an identity: the identityId pattern, not a reserved path segment. */
export const isProvisionableId = (subject: string) =>
  IDENTITY_ID.test(subject) && !RESERVED_IDENTITY_IDS.includes(subject);

/** The field each standard claim fills, with the rule its value must pass. */
const CLAIMS = {
  displayName: ['name', text],
  userName: ['preferred_username', text],
  givenName: ['given_name', text],
  surname: ['family_name', text],
  emailAddress: ['email', email],
  mobilePhone: ['phone_number', phone],
  locality: ['locale', locality],
} as const satisfies Partial<
  Record<IdentityField, readonly [string, (value: unknown) => unknown]>
>;
/** The claim that verifies each flag's value (a JSON `true`; anything else is not). */
const VERIFIED_BY: Partial<Record<IdentityField, string>> = {
  emailAddressVerified: 'email_verified',
  mobilePhoneVerified: 'phone_number_verified',
};
/** The issuer has one picture of unknown size: it serves as each size. */
const PICTURES = ['smallPictures', 'mediumPictures', 'largePictures'] as const;

/** The identity's fields from the standard claims. */
export function identityFromClaims(claims: JWTPayload): ClaimedFields {
  const fields: Record<string, unknown> = {};
  for (const [field, [claim, rule]] of Object.entries(CLAIMS)) {
    const value = rule(claims[claim]);
    if (value !== undefined) fields[field] = value;
  }
  for (const [primary, list] of PRIMARIES)
    if (fields[primary] !== undefined) fields[list] = [fields[primary]];
  for (const [flag, field] of VERIFICATIONS)
    if (fields[field] !== undefined && claims[VERIFIED_BY[flag]!] === true)
      fields[flag] = true;
  const picture = url(claims.picture);
  if (picture !== undefined)
    for (const size of PICTURES) fields[size] = [picture];
  return fields as ClaimedFields;
}

/** The account named by the account claim, at `provider`, described by the same claims. */
export function accountFromClaims(
  claims: JWTPayload,
  accountId: string,
  provider: string,
): ClaimedAccount {
  return {
    accountId,
    accountProviderId: provider,
    issuedUserId: accountId,
    displayName: text(claims.name) ?? null,
    emailAddress: email(claims.email) ?? null,
    pictureUrl: url(claims.picture) ?? null,
  };
}

/**
 * When the user signed in (`auth_time`), if the token says so plausibly: a
 * time after 1970 and not later than `now` plus the clock tolerance (then
 * `now`). A time in milliseconds, as lastLogin keeps it.
 */
export function signInTime(
  claims: JWTPayload,
  now: number,
  toleranceMs: number,
): Date | undefined {
  const seconds = claims.auth_time;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
    return undefined;
  const at = Math.floor(seconds * 1000);
  return at > now + toleranceMs ? undefined : new Date(Math.min(at, now));
}
