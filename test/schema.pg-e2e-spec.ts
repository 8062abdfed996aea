import type { DMMF } from '@prisma/client/runtime/client';
import { readFileSync } from 'node:fs';
import { migrate } from '../src/database/migrator';
import {
  FieldKind,
  FieldSpec,
  IDENTITY_FIELDS,
} from '../src/identity/identity-fields';
import { readDatamodel, SCHEMA_PATH } from './support/prisma-datamodel';
import {
  databaseFacts,
  disagreements,
  Fact,
  schemaFacts,
} from './support/schema-facts';
import { useTestDatabase } from './support/test-database';

/**
 * The column each kind of identity field needs (identity-fields.ts). A NOT
 * NULL column has its kind's empty value as default: without one, adding it
 * fails on a table that has rows, which a scratch database cannot show.
 */
const COLUMN_OF_KIND: Record<FieldKind, string> = {
  id: 'text NOT NULL',
  text: 'text NULL',
  email: 'text NULL',
  locality: 'text NULL',
  datetime: 'timestamp(3) with time zone NULL',
  flag: 'boolean NOT NULL DEFAULT false',
  texts: 'text[] NOT NULL DEFAULT ARRAY[]::text[]',
  emails: 'text[] NOT NULL DEFAULT ARRAY[]::text[]',
  localities: 'text[] NOT NULL DEFAULT ARRAY[]::text[]',
  urls: 'text[] NOT NULL DEFAULT ARRAY[]::text[]',
  properties: "jsonb NOT NULL DEFAULT '{}'::jsonb",
};

/**
 * Indexes on an expression, and partial ones, which schema.prisma cannot
 * declare (it names them in a comment): the migrations must make exactly
 * these.
 */
const EXPRESSION_INDEXES: Fact[] = [
  {
    subject: 'index on identity(tenant_id, ascii_lower(user_name))',
    table: 'identity',
    value: 'unique btree',
    origin: 'identity_tenant_id_ascii_lower_user_name_key',
  },
  {
    subject: 'index on identity(old_identity_ids)',
    table: 'identity',
    value: "gin WHERE old_identity_ids <> '{}'::text[]",
    origin: 'identity_old_identity_ids_idx',
  },
  {
    subject: 'index on identity(tenant_id, ascii_lower(email_address))',
    table: 'identity',
    value: 'btree',
    origin: 'identity_tenant_id_ascii_lower_email_address_idx',
  },
];

/**
 * Columns of `identity` that are the service's own, not an identity's
 * fields (scim_attributes: what a directory said of the values' types).
 */
const SERVICE_COLUMNS = [
  'tenant_id',
  'version',
  'created_at',
  'updated_at',
  'scim_attributes',
];

/** Where the identity field table, the `identity` table and its model differ. */
function fieldTableDisagreements(
  fields: Record<string, FieldSpec>,
  made: Fact[],
  model: DMMF.Model,
): string[] {
  const columns = new Map(
    made
      .filter((f) => f.table === 'identity' && f.column)
      .map((f) => [
        f.column!,
        f.default ? `${f.value} DEFAULT ${f.default}` : f.value,
      ]),
  );
  const found: string[] = [];
  for (const [field, { column, kind }] of Object.entries(fields)) {
    const entry = `IDENTITY_FIELDS.${field} (${kind}, column ${column})`;
    const type = columns.get(column);
    if (!type) found.push(`${entry}: no migration makes the column`);
    else if (type !== COLUMN_OF_KIND[kind])
      found.push(
        `${entry}: needs ${COLUMN_OF_KIND[kind]}, the migrations make ${type}`,
      );
    const declared = model.fields.find((f) => f.name === field);
    if (!declared)
      found.push(`${entry}: model Identity in schema.prisma has no ${field}`);
    else if ((declared.dbName ?? declared.name) !== column)
      found.push(
        `${entry}: schema.prisma maps Identity.${field} to column ${declared.dbName ?? declared.name}`,
      );
  }
  const listed = new Set(Object.values(fields).map((spec) => spec.column));
  for (const [column, type] of columns)
    if (!listed.has(column) && !SERVICE_COLUMNS.includes(column))
      found.push(
        `column identity.${column} (${type}) is not in IDENTITY_FIELDS nor one of the service's own (${SERVICE_COLUMNS.join(', ')})`,
      );
  return found;
}

describe('the database the migrations make', () => {
  const database = useTestDatabase({ migrateOnStart: false });
  let made: Fact[];
  const datamodel = readDatamodel();
  const identityModel = datamodel.models.find((m) => m.name === 'Identity')!;

  beforeAll(async () => {
    made = await database.withSession(async (s) => {
      await migrate(s);
      return databaseFacts(s);
    });
  });

  it('agrees with schema.prisma on every table, column, type, nullability, key and index', () => {
    expect(datamodel.models.length).toBeGreaterThan(0);
    expect(
      disagreements([...schemaFacts(datamodel), ...EXPRESSION_INDEXES], made),
    ).toStrictEqual([]);
  });

  it('stores each entry of the identity field table in a column of its kind, mapped by model Identity', () => {
    expect(
      fieldTableDisagreements(IDENTITY_FIELDS, made, identityModel),
    ).toStrictEqual([]);
  });

  // The two checks above report what is wrong now; these show they would
  // report a change, whatever is wrong already.
  const added = (found: string[], before: string[]) =>
    found.filter((line) => !before.includes(line));

  it('names each disagreement with schema.prisma in a line of its own', async () => {
    const schema = readFileSync(SCHEMA_PATH, 'utf8')
      .replace(/^(\s*surname\s+)String\?/m, '$1String')
      .replace(/@@index\(\[tenantId, externalId\]\)/, '')
      .replace(
        'model Identity {',
        'model Identity {\n  onlyInSchema String? @map("only_in_schema")',
      );
    // Migrations that change a column and add one, undone afterwards.
    const changed = await database.withSession(async (s) => {
      await s.exec(`BEGIN;
        ALTER TABLE identity ALTER COLUMN locality SET NOT NULL;
        ALTER TABLE role ADD COLUMN only_in_migrations text`);
      try {
        return await databaseFacts(s);
      } finally {
        await s.exec('ROLLBACK');
      }
    });
    const found = disagreements(schemaFacts(readDatamodel(schema)), changed);
    expect(
      added(found, disagreements(schemaFacts(datamodel), made)),
    ).toStrictEqual([
      'column identity.only_in_schema (Identity.onlyInSchema): in schema.prisma as text NULL, but no migration makes it',
      'column identity.surname (Identity.surname): schema.prisma says text NOT NULL, the migrations make text NULL',
      'column identity.locality (Identity.locality): schema.prisma says text NULL, the migrations make text NOT NULL',
      'column role.only_in_migrations: made by the migrations as text NULL, but not in schema.prisma',
      'index on identity(tenant_id, external_id) (identity_tenant_id_external_id_idx): made by the migrations as btree, but not in schema.prisma',
    ]);
  });

  it('names each disagreement with the identity field table in a line of its own', () => {
    const { displayName: _, ...fields } = {
      ...IDENTITY_FIELDS,
      onlyInTable: { ...IDENTITY_FIELDS.userName, column: 'only_in_table' },
      lastLogin: { ...IDENTITY_FIELDS.lastLogin, kind: 'text' },
      disabled: { ...IDENTITY_FIELDS.disabled, column: 'is_disabled' },
    } as Record<string, FieldSpec>;
    const found = fieldTableDisagreements(fields, made, identityModel);
    expect(
      added(
        found,
        fieldTableDisagreements(IDENTITY_FIELDS, made, identityModel),
      ),
    ).toStrictEqual([
      'IDENTITY_FIELDS.disabled (flag, column is_disabled): no migration makes the column',
      'IDENTITY_FIELDS.disabled (flag, column is_disabled): schema.prisma maps Identity.disabled to column disabled',
      'IDENTITY_FIELDS.lastLogin (text, column last_login): needs text NULL, the migrations make timestamp(3) with time zone NULL',
      'IDENTITY_FIELDS.onlyInTable (text, column only_in_table): no migration makes the column',
      'IDENTITY_FIELDS.onlyInTable (text, column only_in_table): model Identity in schema.prisma has no onlyInTable',
      "column identity.display_name (text NULL) is not in IDENTITY_FIELDS nor one of the service's own (tenant_id, version, created_at, updated_at, scim_attributes)",
      "column identity.disabled (boolean NOT NULL DEFAULT false) is not in IDENTITY_FIELDS nor one of the service's own (tenant_id, version, created_at, updated_at, scim_attributes)",
    ]);
  });
});
