import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  queryFileDifferences,
  queryFiles,
  queryFileText,
  writeQueryFiles,
} from './query-files';
import { builder, statement } from './sql';

describe('the committed SQL of the statements (src/database/queries/)', () => {
  it('is what every statement compiles to', () => {
    const differences = queryFileDifferences(queryFiles());
    if (differences.length > 0)
      throw new Error(
        `src/database/queries/ differs from the statements:\n${differences.join('\n')}\n` +
          'Run `npm run sql` to write it anew, and commit the change with the code that made it.',
      );
  });

  it('writes a statement laid out, its parameters by name and constants by value', () => {
    const module = 'roles/roles.repository.ts';
    const roles = statement((p: { tenantId: string }) =>
      builder
        .selectFrom('role_assignment')
        .select('role_name')
        .where('tenant_id', '=', p.tenantId)
        .where('role_name', '<>', 'admin'),
    );
    const first = statement(() => builder.selectFrom('tenant').select('id'));
    expect(
      queryFileText(module, [
        { module, name: 'ROLES', statement: roles },
        { module, name: 'KEYED.first', statement: first },
        { module, name: 'LATER' },
      ]),
    ).toBe(
      [
        '-- The statements of src/roles/roles.repository.ts, as PostgreSQL receives them.',
        '-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.',
        '',
        '-- ROLES',
        "-- $1 tenantId, $2 = 'admin'",
        'select',
        '  "role_name"',
        'from',
        '  "role_assignment"',
        'where',
        '  "tenant_id" = $1',
        '  and "role_name" <> $2;',
        '',
        '-- KEYED.first',
        'select',
        '  "id"',
        'from',
        '  "tenant";',
        '',
        '-- LATER',
        '',
      ].join('\n'),
    );
  });

  it('tells a missing, an extra and a changed file, and writing mends them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'queries-'));
    try {
      const files = new Map([
        ['a.sql', 'select 1;\n'],
        ['b.sql', 'select 2;\nselect 3;\n'],
        ['c.sql', 'select 4;\n'],
      ]);
      expect(writeQueryFiles(files, dir)).toStrictEqual([
        'missing: a.sql',
        'missing: b.sql',
        'missing: c.sql',
      ]);
      writeFileSync(join(dir, 'b.sql'), 'select 2;\nselect 30;\n');
      rmSync(join(dir, 'c.sql'));
      writeFileSync(join(dir, 'd.sql'), 'select 5;\n');
      writeFileSync(join(dir, 'notes.txt'), 'not SQL');
      expect(queryFileDifferences(files, dir)).toStrictEqual([
        'changed: b.sql, line 2: committed "select 30;", compiled "select 3;"',
        'missing: c.sql',
        'extra: d.sql',
      ]);
      expect(writeQueryFiles(files, dir)).toHaveLength(3);
      expect(queryFileDifferences(files, dir)).toStrictEqual([]);
      expect(readdirSync(dir).sort()).toStrictEqual([
        'a.sql',
        'b.sql',
        'c.sql',
        'notes.txt',
      ]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
