import type { IdentityRecord } from '../identity/identity.record';
import { EXTENSION_FIELDS, renderField } from './scim-fields';
import { IDENTITY_EXTENSION, USER_SCHEMA } from './scim-schemas';
import { keptAttributes, valueEntries } from './scim-value-attributes';

/** An account of the identity, as the extension lists it. */
export interface ScimAccount {
  accountId: string;
  accountProviderId: string;
  issuedUserId: string;
  displayName: string | null;
  emailAddress: string | null;
}

/**
 * An identity as the SCIM repository reads it: its fields, times, accounts
 * and what a directory said of its values (scim-value-attributes).
 */
export type ScimUserRow = IdentityRecord & {
  createdAt: Date;
  updatedAt: Date;
  accounts: ScimAccount[];
  scimAttributes: unknown;
};

export type ScimUser = Record<string, unknown>;

/** Keeps only the entries that have a value: SCIM leaves unassigned attributes out. */
function present<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(
      ([, v]) =>
        v !== null &&
        v !== undefined &&
        !(Array.isArray(v) && v.length === 0) &&
        !(typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length),
    ),
  ) as Partial<T>;
}

/**
 * The identity as a SCIM User (docs/scim.md, the mapping table): the core
 * attributes, the rest of the identity in the extension, and meta with the
 * identity's ETag as version.
 */
export function toScimUser(
  row: ScimUserRow,
  etag: string,
  location: string,
): ScimUser {
  const formatted = [row.givenName, row.surname].filter(Boolean).join(' ');
  return {
    schemas: [USER_SCHEMA, IDENTITY_EXTENSION],
    id: row.identityId,
    ...present({
      externalId: row.externalId,
      userName: row.userName,
      name: present({
        formatted: formatted || null,
        familyName: row.surname,
        givenName: row.givenName,
      }),
      displayName: row.displayName,
      locale: row.locality,
    }),
    active: !row.disabled,
    ...present(valueEntries(row, keptAttributes(row.scimAttributes))),
    [IDENTITY_EXTENSION]: {
      ...extensionOf(row),
      accounts: row.accounts.map((account) => present({ ...account })),
    },
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location,
      version: etag,
    },
  };
}

/** The extension's attributes: each field the core schema does not show. */
function extensionOf(row: ScimUserRow): Record<string, unknown> {
  const extension: Record<string, unknown> = {};
  for (const [field, spec] of EXTENSION_FIELDS) {
    const value = renderField(spec.kind, row[field]);
    if (value !== undefined) extension[field] = value;
  }
  return extension;
}
