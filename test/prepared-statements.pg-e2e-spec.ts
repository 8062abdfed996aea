import { API, bearer, example, TOKENS } from './support/example';
import { withTestApp } from './support/test-app';

// On PostgreSQL the service prepares its statements (PostgreSQL plans each
// once per connection), unless told not to, for a pooler that cannot keep
// them. One connection, so that the check below sees the service's own.
describe('prepared statements', () => {
  const preparedAfterRequests = (prepared: boolean) => {
    const config = {
      databasePoolSize: 1,
      databasePreparedStatements: prepared,
    };
    return withTestApp({ tenants: [example()], config }, async (t) => {
      for (const path of ['', '/roles', '/friends', '/accounts'])
        await t.http().get(`${API}${path}`).set(bearer(TOKENS.ada)).expect(200);
      const rows = await t.database.prisma.$queryRaw<{ statement: string }[]>`
        SELECT statement FROM pg_prepared_statements`;
      return rows.map((r) => r.statement);
    });
  };

  it('prepares the statements of the request path', async () => {
    const statements = await preparedAfterRequests(true);
    expect(statements.some((s) => s.includes('from "token" as "t"'))).toBe(
      true,
    );
    expect(statements.some((s) => s.includes('from "friendship" as "f"'))).toBe(
      true,
    );
  });

  it('prepares none when DATABASE_PREPARED_STATEMENTS is off', async () => {
    expect(await preparedAfterRequests(false)).toStrictEqual([]);
  });
});
