/**
 * The fields of an identity, once. Everything else that lists them is
 * derived from this table: the column map and the rows read and written
 * (identity.record.ts, the importer), the response and its mapper, the
 * public view, the PUT's editable and read-only sets with their rules and
 * limits, the import format's rules and the OpenAPI schemas. A new field is
 * one line here plus its migration (docs/architecture.md).
 */

/** What a field holds; it decides its column type, rules and representation. */
export type FieldKind =
  | 'id' // the identifier (IDENTITY_ID)
  | 'text' // a string, absent when it has no value
  | 'email' // an e-mail address, absent when none
  | 'locality' // xx-XX, absent when none
  | 'datetime' // a UTC time, YYYY-MM-DDThh:mm:ss.fff, absent when none
  | 'flag' // a boolean, always present
  | 'texts' // strings, always present ([] when none)
  | 'emails'
  | 'localities'
  | 'urls' // absolute http(s) URLs, left out when none (pictures)
  | 'properties'; // name → string, always present ({} when none)

export interface FieldSpec {
  /** The column of table `identity`. */
  column: string;
  kind: FieldKind;
  /** A PUT may set it (and `null` clears it); otherwise it is read-only. */
  editable: boolean;
  /** A friend sees it (decisions.md, Authorization). */
  public: boolean;
  /** The list a primary value is also a member of (decisions.md, Representation 3). */
  primaryOf?: string;
  /** The value whose change makes this flag false again. */
  verifies?: string;
  /**
   * The core SCIM User attribute that shows it (docs/scim.md, the mapping);
   * a field without one is an attribute of the identity extension, derived
   * from this table with no SCIM code written.
   */
  scim?: string;
  /** Compared exactly, case included (an identifier), in SCIM filters. */
  caseExact?: true;
  description: string;
  /** The demo tenant's alice. */
  example: unknown;
}

// One line of facts per field, kept as a table.
// prettier-ignore
export const IDENTITY_FIELDS = {
  identityId: {
    column: 'identity_id', kind: 'id', editable: false, public: true,
    scim: 'id',
    description: 'unique identifier of the identity', example: 'alice',
  },
  disabled: {
    column: 'disabled', kind: 'flag', editable: false, public: true,
    scim: 'active',
    description: 'true if the identity is disabled', example: false,
  },
  isArchived: {
    column: 'is_archived', kind: 'flag', editable: false, public: true,
    description: 'true if the identity is archived', example: false,
  },
  displayName: {
    column: 'display_name', kind: 'text', editable: true, public: true,
    scim: 'displayName',
    description: 'display name', example: 'Alice Martin',
  },
  userName: {
    column: 'user_name', kind: 'text', editable: true, public: true,
    scim: 'userName',
    description: 'the profile user name, unique in the tenant (in any case)', example: 'alice',
  },
  externalId: {
    column: 'external_id', kind: 'text', editable: false, public: false,
    scim: 'externalId',
    description: "a provisioning client's id of the identity (SCIM externalId)", example: 'alice-ext-1',
  },
  emailAddress: {
    column: 'email_address', kind: 'email', editable: true, public: false,
    scim: 'emails',
    primaryOf: 'emailAddresses',
    description: 'primary e-mail address', example: 'alice@demo.example',
  },
  emailAddresses: {
    column: 'email_addresses', kind: 'emails', editable: true, public: false,
    scim: 'emails',
    description: 'all e-mail addresses, the primary first',
    example: ['alice@demo.example', 'alice.martin@mail.example'],
  },
  emailAddressVerified: {
    column: 'email_address_verified', kind: 'flag', editable: false, public: false,
    verifies: 'emailAddress',
    description: 'true if the primary e-mail address is verified', example: true,
  },
  givenName: {
    column: 'given_name', kind: 'text', editable: true, public: true,
    scim: 'name.givenName',
    primaryOf: 'givenNames',
    description: 'primary given name', example: 'Alice',
  },
  givenNames: {
    column: 'given_names', kind: 'texts', editable: true, public: true,
    description: 'given names', example: ['Alice', 'Marie'],
  },
  surname: {
    column: 'surname', kind: 'text', editable: true, public: true,
    scim: 'name.familyName',
    primaryOf: 'surnames',
    description: 'primary surname', example: 'Martin',
  },
  surnames: {
    column: 'surnames', kind: 'texts', editable: true, public: true,
    description: 'surnames', example: ['Martin'],
  },
  locality: {
    column: 'locality', kind: 'locality', editable: true, public: true,
    scim: 'locale',
    primaryOf: 'localities',
    description: 'language code, xx-XX', example: 'fr-FR',
  },
  localities: {
    column: 'localities', kind: 'localities', editable: true, public: true,
    description: 'language codes, xx-XX', example: ['fr-FR', 'en-GB'],
  },
  mobilePhone: {
    column: 'mobile_phone', kind: 'text', editable: true, public: false,
    scim: 'phoneNumbers',
    description: 'mobile phone number', example: '+33 6 12 34 56 78',
  },
  mobilePhoneVerified: {
    column: 'mobile_phone_verified', kind: 'flag', editable: false, public: false,
    verifies: 'mobilePhone',
    description: 'true if the mobile phone is verified', example: true,
  },
  privatePersonalIdentifier: {
    column: 'private_personal_identifier', kind: 'text', editable: false, public: false,
    caseExact: true,
    description: 'a unique identifier', example: 'demo-ppid-alice',
  },
  lastLogin: {
    column: 'last_login', kind: 'datetime', editable: false, public: false,
    description: 'UTC date and time of the last authentication, YYYY-MM-DDThh:mm:ss.fff, no offset',
    example: '2026-11-21T09:30:00.125',
  },
  smallPictures: {
    column: 'small_pictures', kind: 'urls', editable: true, public: true,
    scim: 'photos',
    description: 'small profile pictures; left out when there are none',
    example: ['https://pictures.demo.example/alice/s.jpg'],
  },
  mediumPictures: {
    column: 'medium_pictures', kind: 'urls', editable: true, public: true,
    description: 'medium profile pictures; left out when there are none',
    example: ['https://pictures.demo.example/alice/m.jpg'],
  },
  largePictures: {
    column: 'large_pictures', kind: 'urls', editable: true, public: true,
    scim: 'photos',
    description: 'large profile pictures; left out when there are none',
    example: ['https://pictures.demo.example/alice/l.jpg'],
  },
  userNamePasswordAccountUserName: {
    column: 'user_name_password_account_user_name', kind: 'text', editable: false, public: false,
    description: "the user name of the identity's username/password account", example: 'alice',
  },
  oldIdentityIds: {
    column: 'old_identity_ids', kind: 'texts', editable: false, public: false,
    caseExact: true,
    description: 'identifiers of identities merged into this one', example: ['alice-old'],
  },
  properties: {
    column: 'properties', kind: 'properties', editable: true, public: false,
    description: 'custom properties, by name', example: { team: 'Platform', office: 'Lyon' },
  },
} as const satisfies Record<string, FieldSpec>;

/** The kinds a PUT can set: a value a client may send, not a flag, time or id. */
export type EditableKind = Exclude<FieldKind, 'id' | 'flag' | 'datetime'>;

// The compiler refuses an editable field of another kind.
type EditableKinds<T> = {
  [F in keyof T]: T[F] extends { editable: true; kind: infer K }
    ? K extends EditableKind
      ? T[F]
      : never
    : T[F];
};
IDENTITY_FIELDS satisfies EditableKinds<typeof IDENTITY_FIELDS>;

export type IdentityField = keyof typeof IDENTITY_FIELDS;
type Spec<F extends IdentityField> = (typeof IDENTITY_FIELDS)[F];
type KindOf<F extends IdentityField> = Spec<F>['kind'];

type ListKind = 'texts' | 'emails' | 'localities' | 'urls';
type OptionalKind = 'text' | 'email' | 'locality' | 'datetime' | 'urls';

/** A field's value in a response. */
type ResponseValue<K extends FieldKind> = K extends 'flag'
  ? boolean
  : K extends ListKind
    ? string[]
    : K extends 'properties'
      ? Record<string, string>
      : string;

/** A field's value in a stored row: a missing single value is null. */
type RowValue<K extends FieldKind> = K extends 'datetime'
  ? Date | null
  : K extends 'text' | 'email' | 'locality'
    ? string | null
    : ResponseValue<K>;

/** Fields of a given kind. */
type FieldsWhere<Condition> = {
  [F in IdentityField]: KindOf<F> extends Condition ? F : never;
}[IdentityField];

/** An identity as the API returns it; a field without a value is left out. */
export type IdentityResponse = {
  [F in Exclude<IdentityField, FieldsWhere<OptionalKind>>]: ResponseValue<
    KindOf<F>
  >;
} & {
  [F in FieldsWhere<OptionalKind>]?: ResponseValue<KindOf<F>>;
};

/** An identity as stored, without its version: the importer's row. */
export type IdentityFieldValues = {
  [F in IdentityField]: RowValue<KindOf<F>>;
};

/** Fields a PUT may set. */
export type EditableField = {
  [F in IdentityField]: Spec<F>['editable'] extends true ? F : never;
}[IdentityField];

/** A validated PUT body: only editable fields, each a value or null. */
export type IdentityUpdate = {
  [F in EditableField]?: ResponseValue<KindOf<F>> | null;
};

const entries = Object.entries(IDENTITY_FIELDS) as [IdentityField, FieldSpec][];
const where = (test: (spec: FieldSpec) => boolean) =>
  entries.filter(([, spec]) => test(spec)).map(([field]) => field);

export const FIELD_NAMES = entries.map(([field]) => field);
export const EDITABLE_FIELDS = where((s) => s.editable) as EditableField[];
export const READ_ONLY_FIELDS = where((s) => !s.editable);
export const PUBLIC_FIELDS: ReadonlySet<IdentityField> = new Set(
  where((s) => s.public),
);
export const LIST_KINDS: ReadonlySet<FieldKind> = new Set<ListKind>([
  'texts',
  'emails',
  'localities',
  'urls',
]);

/** Primary values and the lists they belong to. */
export const PRIMARIES = entries.flatMap(([field, spec]) =>
  spec.primaryOf ? [[field, spec.primaryOf as IdentityField] as const] : [],
);

/** Flags and the values whose change makes them false. */
export const VERIFICATIONS = entries.flatMap(([field, spec]) =>
  spec.verifies ? [[field, spec.verifies as IdentityField] as const] : [],
);

/** The value a field has when nothing is given: null, [], {} or false. */
export function emptyValue(kind: FieldKind): unknown {
  if (kind === 'flag') return false;
  if (kind === 'properties') return {};
  return LIST_KINDS.has(kind) ? [] : null;
}

/** An identity with nothing but its id: every other field empty. */
export function emptyIdentity(identityId: string): IdentityFieldValues {
  const row = Object.fromEntries(
    entries.map(([field, spec]) => [field, emptyValue(spec.kind)]),
  );
  return { ...row, identityId } as IdentityFieldValues;
}
