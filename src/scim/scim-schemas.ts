import { EXTENSION_FIELDS, fieldAttribute } from './scim-fields';
import type { PathModel } from './scim-path';
import {
  attribute,
  complex,
  multiValued,
  ScimAttribute,
  ScimSchema,
} from './scim-schema';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const IDENTITY_EXTENSION =
  'urn:ietf:params:scim:schemas:extension:identity:2.0:User';
/** RFC 7643 §4.3: accepted in a User and ignored (docs/scim.md). */
export const ENTERPRISE_EXTENSION =
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

const readOnly = { mutability: 'readOnly' } as const;

/** The core User schema, reduced to the attributes an identity holds (docs/scim.md). */
export const USER: ScimSchema = {
  id: USER_SCHEMA,
  name: 'User',
  description: 'User Account: an identity of the tenant',
  attributes: [
    attribute(
      'userName',
      'string',
      'unique identifier of the user within the tenant; compared case-insensitively',
      {
        required: true,
        uniqueness: 'server',
      },
    ),
    complex('name', "the user's name", [
      attribute(
        'formatted',
        'string',
        'the given name and the family name',
        readOnly,
      ),
      attribute('familyName', 'string', 'the primary surname'),
      attribute('givenName', 'string', 'the primary given name'),
    ]),
    attribute('displayName', 'string', 'the name to display'),
    attribute('locale', 'string', 'the preferred language, xx-XX'),
    attribute('active', 'boolean', 'false when the identity is disabled'),
    multiValued(
      'emails',
      'e-mail addresses; the primary one is the identity’s e-mail address',
      attribute('value', 'string', 'the e-mail address'),
      ['work', 'home', 'other'],
    ),
    multiValued(
      'phoneNumbers',
      'phone numbers; only the first of type mobile is kept',
      attribute('value', 'string', 'the phone number'),
      ['mobile'],
    ),
    multiValued(
      'photos',
      'pictures: large ones as photo, small ones as thumbnail',
      attribute('value', 'reference', 'the URL of the picture'),
      ['photo', 'thumbnail'],
    ),
  ],
};

/**
 * What an identity holds beyond the core User schema: every field of the
 * identity table that no core attribute shows (scim-fields.ts), then its
 * accounts.
 */
export const IDENTITY: ScimSchema = {
  id: IDENTITY_EXTENSION,
  name: 'Identity',
  description: 'The rest of the identity behind a User',
  attributes: [
    ...EXTENSION_FIELDS.map(([name, spec]) => fieldAttribute(name, spec)),
    complex(
      'accounts',
      'the login accounts linked to the identity',
      [
        attribute('accountId', 'string', 'the account’s id', {
          ...readOnly,
          caseExact: true,
        }),
        attribute(
          'accountProviderId',
          'string',
          'the provider of the account',
          { ...readOnly, caseExact: true },
        ),
        attribute('issuedUserId', 'string', 'the user id the provider issued', {
          ...readOnly,
          caseExact: true,
        }),
        attribute(
          'displayName',
          'string',
          'the name the provider knows',
          readOnly,
        ),
        attribute(
          'emailAddress',
          'string',
          'the e-mail address the provider knows',
          readOnly,
        ),
      ],
      { ...readOnly, multiValued: true },
    ),
  ],
};

/** The core Group schema: the tenant's roles. */
export const GROUP: ScimSchema = {
  id: GROUP_SCHEMA,
  name: 'Group',
  description: 'Group: a role of the tenant',
  attributes: [
    attribute('displayName', 'string', 'the name of the role', {
      required: true,
      uniqueness: 'server',
    }),
    complex(
      'members',
      'the users holding the role',
      [
        attribute('value', 'string', 'the id of the member', {
          mutability: 'immutable',
          caseExact: true,
        }),
        attribute('$ref', 'reference', 'the URI of the member', {
          mutability: 'immutable',
          referenceTypes: ['User'],
        }),
        attribute(
          'display',
          'string',
          'the display name of the member',
          readOnly,
        ),
        attribute('type', 'string', 'the kind of member', {
          mutability: 'immutable',
          canonicalValues: ['User'],
        }),
      ],
      { multiValued: true },
    ),
  ],
};

export const SCHEMAS = [USER, IDENTITY, GROUP];

/** The attributes every resource has (RFC 7643 §3.1), none of them in a schema. */
export const COMMON: ScimAttribute[] = [
  attribute('id', 'string', 'the id the service assigned', {
    ...readOnly,
    caseExact: true,
    returned: 'always',
    uniqueness: 'server',
  }),
  attribute('externalId', 'string', 'the id the client knows it by', {
    caseExact: true,
  }),
  complex(
    'meta',
    'the resource’s metadata',
    [
      attribute('resourceType', 'string', 'User or Group', readOnly),
      attribute('created', 'dateTime', 'when it was created', readOnly),
      attribute('lastModified', 'dateTime', 'when it last changed', readOnly),
      attribute('location', 'reference', 'its URI', readOnly),
      attribute('version', 'string', 'its ETag', readOnly),
    ],
    readOnly,
  ),
];

/** What a User's PATCH paths may name. */
export const USER_PATHS: PathModel = {
  core: USER,
  extensions: [IDENTITY],
  common: COMMON,
  ignored: [ENTERPRISE_EXTENSION],
};

/** The resource types, as /ResourceTypes lists them (RFC 7643 §6). */
export const RESOURCE_TYPES = [
  {
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'User Account: an identity of the tenant',
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: IDENTITY_EXTENSION, required: false }],
  },
  {
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'Group: a role of the tenant',
    schema: GROUP_SCHEMA,
    schemaExtensions: [],
  },
];
