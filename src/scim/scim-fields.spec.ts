import * as fields from '../identity/identity-fields';
import type { FieldSpec } from '../identity/identity-fields';
import type { ScimAttribute } from './scim-schema';

const EXTENSION = 'urn:ietf:params:scim:schemas:extension:identity:2.0:User';

/**
 * The SCIM modules as they are built from a field table with `extra` added.
 * The identity API's own checks of a PUT, derived from the same table when
 * a field is really added, are stood in for by a pass-through here: the
 * table's derived sets are computed once, from the real table.
 */
function scimWith(extra: Record<string, FieldSpec>) {
  let loaded: {
    schemas: typeof import('./scim-schemas');
    mapper: typeof import('./scim-user.mapper');
    input: typeof import('./scim-user.input');
    repository: typeof import('./scim-users.repository');
  };
  jest.isolateModules(() => {
    jest.doMock('../identity/identity-fields', () => ({
      ...fields,
      IDENTITY_FIELDS: { ...fields.IDENTITY_FIELDS, ...extra },
    }));
    if (Object.keys(extra).length)
      jest.doMock('../identity/update-identity.pipe', () => ({
        UpdateIdentityPipe: class {
          transform = (update: unknown) => update;
        },
      }));
    loaded = {
      schemas: require('./scim-schemas'),
      mapper: require('./scim-user.mapper'),
      input: require('./scim-user.input'),
      repository: require('./scim-users.repository'),
    };
  });
  jest.dontMock('../identity/identity-fields');
  jest.dontMock('../identity/update-identity.pipe');
  return loaded!;
}

const find = (attributes: ScimAttribute[], path: string) =>
  path
    .split('.')
    .reduce<ScimAttribute | undefined>(
      (found, name) =>
        (found ? found.subAttributes : attributes)?.find(
          (a) => a.name === name,
        ),
      undefined,
    );

/** A row with every field at its example value, as the repository reads it. */
const exampleRow = (table: Record<string, FieldSpec>) => ({
  ...Object.fromEntries(
    Object.entries(table).map(([field, spec]) => [
      field,
      spec.kind === 'datetime'
        ? new Date(`${String(spec.example)}Z`)
        : spec.example,
    ]),
  ),
  version: 1n,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-02T00:00:00Z'),
  accounts: [],
});

describe('SCIM’s view of the identity fields', () => {
  it('shows every field of the table: as the core attribute its entry names, or in the extension', () => {
    const { schemas } = scimWith({});
    for (const [field, spec] of Object.entries(
      fields.IDENTITY_FIELDS as Record<string, FieldSpec>,
    )) {
      if (spec.scim) {
        const shown =
          find(schemas.USER.attributes, spec.scim) ??
          find(schemas.COMMON, spec.scim);
        expect([field, shown?.name]).toStrictEqual([
          field,
          spec.scim.split('.').at(-1),
        ]);
        continue;
      }
      expect([field, find(schemas.IDENTITY.attributes, field)]).toStrictEqual([
        field,
        expect.objectContaining({
          mutability: spec.editable ? 'readWrite' : 'readOnly',
        }),
      ]);
    }
  });

  it('carries a field added to the table through SCIM with no SCIM code written', () => {
    const nickname: FieldSpec = {
      column: 'nickname',
      kind: 'text',
      editable: true,
      public: true,
      description: 'what friends call the identity',
      example: 'Ali',
    };
    const badges: FieldSpec = {
      column: 'badges',
      kind: 'texts',
      editable: false,
      public: false,
      description: 'badges earned',
      example: ['first-login'],
    };
    const table = { ...fields.IDENTITY_FIELDS, nickname, badges };
    const { schemas, mapper, input, repository } = scimWith({
      nickname,
      badges,
    });
    // /Schemas
    expect(find(schemas.IDENTITY.attributes, 'nickname')).toMatchObject({
      type: 'string',
      multiValued: false,
      mutability: 'readWrite',
      description: 'what friends call the identity',
    });
    expect(find(schemas.IDENTITY.attributes, 'badges')).toMatchObject({
      type: 'string',
      multiValued: true,
      mutability: 'readOnly',
    });
    // The User a directory reads
    const user = mapper.toScimUser(
      exampleRow(table) as never,
      'W/"1"',
      '/Users/alice',
    );
    expect(user[EXTENSION]).toMatchObject({
      nickname: 'Ali',
      badges: ['first-login'],
    });
    // What a write reads: the editable one only
    const update = input.fromScimUser({ ...user, userName: 'alice' }).update;
    expect(update).toMatchObject({ nickname: 'Ali' });
    expect('badges' in update).toBe(false);
    // Filters
    expect(
      Object.keys(repository.USER_FILTER_ATTRIBUTES).filter((k) =>
        /nickname|badges/.test(k),
      ),
    ).toStrictEqual([
      `${EXTENSION.toLowerCase()}:nickname`,
      `${EXTENSION.toLowerCase()}:badges`,
    ]);
    // PATCH paths
    expect(
      schemas.USER_PATHS.extensions[0].attributes.map((a) => a.name),
    ).toEqual(expect.arrayContaining(['nickname', 'badges']));
  });

  it('renders and reads back every extension field of today’s table', () => {
    const { mapper, input } = scimWith({});
    const table = fields.IDENTITY_FIELDS as Record<string, FieldSpec>;
    const user = mapper.toScimUser(
      exampleRow(table) as never,
      'W/"1"',
      '/Users/alice',
    );
    const update = input.fromScimUser(user).update as Record<string, unknown>;
    for (const [field, spec] of Object.entries(table))
      if (!spec.scim && spec.editable)
        expect([field, update[field]]).toStrictEqual([field, spec.example]);
  });
});
