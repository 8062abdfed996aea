import { Prisma } from '../src/generated/prisma/client';
import { filterToSql } from '../src/scim/scim-filter';
import { USER_FILTER_ATTRIBUTES } from '../src/scim/scim-users.repository';
import { withClient } from './support/postgres-admin';
import { createTestDatabase } from './support/test-database';

// What Entra ID and Okta send before every write — one User by userName —
// must be answered from the unique index on ascii_lower(user_name), however
// many Users a tenant has: the filter's SQL has to be in a form the index
// serves. With sequential scans switched off the planner still has to find
// the rows somehow, so the plan tells; the table's size does not matter.
describe('SCIM filters on PostgreSQL', () => {
  it.each([
    ['userName eq "Ada"'],
    ['not (userName eq "Ada") and userName eq "Mary"'],
  ])('finds %s through the index on ascii_lower(user_name)', async (filter) => {
    const db = await createTestDatabase();
    try {
      const query = Prisma.sql`EXPLAIN (FORMAT JSON) SELECT count(*) FROM identity i
        WHERE i.tenant_id = ${'example'} AND ${filterToSql(filter, USER_FILTER_ATTRIBUTES)}`;
      const plan = await withClient(async (client) => {
        await client.query('SET enable_seqscan = off');
        const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
          query.text,
          query.values,
        );
        return JSON.stringify(rows[0]['QUERY PLAN']);
      }, db.config.databaseUrl);
      expect(plan).toContain(
        '"Index Name":"identity_tenant_id_ascii_lower_user_name_key"',
      );
      // The planner inlines ascii_lower(): the plan shows its body.
      expect(plan).toMatch(
        /"Index Cond":"\(\(tenant_id = 'example'::text\) AND \(translate\(user_name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'::text, 'abcdefghijklmnopqrstuvwxyz'::text\) = '(ada|mary)'::text\)\)"/,
      );
    } finally {
      await db.drop();
    }
  });
});
