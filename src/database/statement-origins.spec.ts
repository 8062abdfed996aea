import { nameStatements } from './statement-origins';
import { builder, recordStatements, statement } from './sql';

// Statements of this file, built as it loads, as a module's would be.
const recorded = recordStatements();
const ROLES = statement((p: { tenantId: string }) =>
  builder
    .selectFrom('role_assignment')
    .select('role_name')
    .where('tenant_id', '=', p.tenantId),
);
const KEYED = {
  first: statement(() => builder.selectFrom('tenant').select('id')),
  second: statement(() => builder.selectFrom('token').select('id')),
};
const made = (limited: boolean) =>
  statement((p: { limit: number }) =>
    builder
      .selectFrom('tenant')
      .select('id')
      .$if(limited, (q) => q.limit(p.limit)),
  );
const LISTED = [made(false), made(true)];
const MAPPED = Object.fromEntries([1, 2].map((n) => [n, made(n > 1)]));
const fixtures = [...recorded];
const TWICE = [1].map(() => made(false)).concat([2].map(() => made(false)));
const twice = recorded.slice(fixtures.length);
const onUse = () => statement(() => builder.selectFrom('tenant').select('id'));

describe('nameStatements', () => {
  it('names each statement where its module holds it', () => {
    const named = nameStatements(fixtures, [__filename]);
    expect(named.map(({ statement }) => statement)).toStrictEqual([
      ROLES,
      KEYED.first,
      KEYED.second,
      ...LISTED,
      MAPPED[1],
      MAPPED[2],
      undefined,
    ]);
    expect(named.map(({ module, name }) => [module, name])).toStrictEqual(
      [
        'ROLES',
        'KEYED.first',
        'KEYED.second',
        'LISTED[0]: made(false)',
        'LISTED[1]: made(true)',
        'MAPPED: made(n > 1) #1',
        'MAPPED: made(n > 1) #2',
        'onUse: built on use, not listed',
      ].map((name) => ['database/statement-origins.spec.ts', name]),
    );
  });

  it('refuses a name that two places give', () => {
    expect(TWICE).toHaveLength(2);
    expect(() => nameStatements(twice, [])).toThrow(
      /^Two statements of src\/database\/statement-origins\.spec\.ts are named TWICE: made\(false\): at database\/statement-origins\.spec\.ts:\d+ and database\/statement-origins\.spec\.ts:\d+$/,
    );
  });

  it('refuses a statement built after its module loaded', () => {
    const before = recorded.length;
    onUse();
    expect(() => nameStatements(recorded.slice(before), [])).toThrow(
      /^A statement built after its module loaded:\n/,
    );
  });
});
