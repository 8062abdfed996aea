import { applyDecorators } from '@nestjs/common';
import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsString,
  Matches,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';

// The value rules of the tenant import format (docs/import-format.md),
// shared by the importer and by PUT of an identity.

// The longest values the identifier patterns admit; OpenAPI states them as
// maxLength beside the patterns, so both are written from one number.
export const TENANT_ID_MAX_LENGTH = 63;
export const IDENTITY_ID_MAX_LENGTH = 128;

export const TENANT_ID = new RegExp(
  `^[a-z0-9][a-z0-9-]{0,${TENANT_ID_MAX_LENGTH - 1}}$`,
);
export const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const IDENTITY_ID = new RegExp(
  `^[A-Za-z0-9][A-Za-z0-9._-]{0,${IDENTITY_ID_MAX_LENGTH - 1}}$`,
);
/** Identifiers that would collide with the API's own path segments. */
export const RESERVED_IDENTITY_IDS = ['accounts', 'friends', 'roles'];
export const LOCALITY = /^[a-z]{2}-[A-Z]{2}$/;
/** The JWS algorithms a token issuer may sign with: an allow-list, as RFC 8725 advises. */
export const JWT_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
/** Text the database can store: anything but U+0000. */
// oxlint-disable-next-line no-control-regex -- U+0000 is the character it refuses.
export const STORABLE_TEXT = /^[^\u0000]*$/;
export const UTC_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z?$/;
export const TOKEN_SECRET = /^[A-Za-z0-9._~+/-]{20,512}$/;

/** The field may be left out; when present it must pass the other rules. */
export const Absent = () => ValidateIf((_object, value) => value !== undefined);

/** PostgreSQL text cannot hold U+0000, so no value may contain it. */
export const hasNoNul = (value: unknown) =>
  typeof value !== 'string' || STORABLE_TEXT.test(value);

/**
 * A lone surrogate (U+D800–U+DFFF outside a pair) has no UTF-8 form: the
 * driver would store U+FFFD instead, silently altering the value.
 */
export const isWellFormed = (value: unknown) =>
  typeof value !== 'string' || !/\p{Cs}/u.test(value);

/** Text stored exactly as sent. */
export const isStorableText = (value: unknown) =>
  hasNoNul(value) && isWellFormed(value);

export const IsText = (options?: ValidationOptions) =>
  applyDecorators(
    IsString({
      message: `${options?.each ? 'each item ' : ''}must be a string`,
      ...options,
    }),
    ValidateBy(
      { name: 'hasNoNul', validator: { validate: hasNoNul } },
      {
        message: `${options?.each ? 'each item ' : ''}must not contain U+0000`,
        ...options,
      },
    ),
    ValidateBy(
      { name: 'isWellFormed', validator: { validate: isWellFormed } },
      {
        message: `${options?.each ? 'each item ' : ''}must not contain a lone surrogate (U+D800–U+DFFF)`,
        ...options,
      },
    ),
  );

export const IsFlag = () => IsBoolean({ message: 'must be true or false' });

export const IsTextList = () =>
  applyDecorators(
    IsArray({ message: 'must be an array' }),
    IsText({ each: true }),
  );

export const IsEmailAddress = (options?: ValidationOptions) =>
  IsEmail(
    {},
    {
      message: `${options?.each ? 'each item ' : ''}must be an e-mail address`,
      ...options,
    },
  );

export const IsLocality = (options?: ValidationOptions) =>
  Matches(LOCALITY, {
    message: `${options?.each ? 'each item ' : ''}must be a locality of the form xx-XX (ISO 639-1 language, ISO 3166-1 country)`,
    ...options,
  });

export function isHttpUrl(value: unknown): boolean {
  if (
    typeof value !== 'string' ||
    !isStorableText(value) ||
    !URL.canParse(value)
  )
    return false;
  const { protocol, host } = new URL(value);
  return (protocol === 'http:' || protocol === 'https:') && host !== '';
}

export const IsHttpUrl = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isHttpUrl', validator: { validate: isHttpUrl } },
    {
      message: `${options?.each ? 'each item ' : ''}must be an absolute http(s) URL`,
      ...options,
    },
  );

export const IsUrlList = () =>
  applyDecorators(
    IsArray({ message: 'must be an array' }),
    IsHttpUrl({ each: true }),
  );

/** `YYYY-MM-DDThh:mm:ss.fff` in UTC, optionally followed by `Z`, a real instant. */
export function parseUtcDateTime(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = UTC_DATE_TIME.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  const exact =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60;
  return exact ? date : undefined;
}

export const IsUtcDateTime = () =>
  ValidateBy(
    {
      name: 'isUtcDateTime',
      validator: { validate: (v) => parseUtcDateTime(v) !== undefined },
    },
    {
      message:
        'must be a UTC date and time of the form YYYY-MM-DDThh:mm:ss.fff',
    },
  );

export function isStringMap(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(value).every(
      ([k, v]) =>
        typeof v === 'string' && isStorableText(k) && isStorableText(v),
    )
  );
}

export const IsStringMap = () =>
  ValidateBy(
    { name: 'isStringMap', validator: { validate: isStringMap } },
    {
      message:
        'must be an object whose values are strings (no U+0000 or lone surrogate)',
    },
  );

/**
 * A primary value (emailAddress, givenName, surname, locality) is also a
 * member of its list: added at the front when missing.
 */
export function withPrimary(
  primary: string | null | undefined,
  list: string[] = [],
): string[] {
  return primary === null || primary === undefined || list.includes(primary)
    ? [...list]
    : [primary, ...list];
}
