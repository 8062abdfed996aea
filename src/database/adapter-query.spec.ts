import { ColumnTypeEnum } from '@prisma/driver-adapter-utils';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { adapterRows, statementQuery } from './adapter-query';

/** The package.json of the package `file` belongs to: the nearest one up. */
function manifest(file: string): { dependencies: Record<string, string> } {
  let dir = dirname(file);
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error(`No package.json above ${file}`);
    dir = dirname(dir);
  }
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

describe('the driver adapter utilities', () => {
  it('are the version the driver adapter itself is built on', () => {
    // The column types this file decodes and the error kinds the error
    // mapper knows are that package's: an upgrade of Prisma moves both.
    const ours = manifest(join(__dirname, '..', '..', 'package.json'));
    const adapter = manifest(require.resolve('@prisma/adapter-pg'));
    expect(ours.dependencies['@prisma/driver-adapter-utils']).toBe(
      adapter.dependencies['@prisma/driver-adapter-utils'],
    );
  });
});

describe('statementQuery', () => {
  it('numbers the placeholders and types each value as Prisma does', () => {
    const when = new Date('2026-01-02T03:04:05.678Z');
    expect(
      statementQuery('SELECT $1, $2, $3, $4, $5, $6', [
        'a',
        1n,
        2,
        when,
        ['x', 'y'],
        null,
      ]),
    ).toStrictEqual({
      sql: 'SELECT $1, $2, $3, $4, $5, $6',
      args: ['a', 1n, 2, when, ['x', 'y'], null],
      argTypes: [
        { scalarType: 'string', arity: 'scalar' },
        { scalarType: 'bigint', arity: 'scalar' },
        { scalarType: 'int', arity: 'scalar' },
        { scalarType: 'datetime', arity: 'scalar' },
        { scalarType: 'string', arity: 'list' },
        { scalarType: 'unknown', arity: 'scalar' },
      ],
    });
  });
});

describe('adapterRows', () => {
  it('keys rows by column and values them as $queryRaw does', () => {
    expect(
      adapterRows({
        columnNames: ['id', 'version', 'at', 'properties', 'names', 'ok', 'n'],
        columnTypes: [
          ColumnTypeEnum.Text,
          ColumnTypeEnum.Int64,
          ColumnTypeEnum.DateTime,
          ColumnTypeEnum.Json,
          ColumnTypeEnum.TextArray,
          ColumnTypeEnum.Boolean,
          ColumnTypeEnum.Int32,
        ],
        rows: [
          [
            'ada',
            '9007199254740993',
            '2026-01-02T03:04:05.678+00:00',
            '{"a":"b"}',
            ['x'],
            true,
            3,
          ],
          [null, null, null, null, [], false, 0],
        ],
      }),
    ).toStrictEqual([
      {
        id: 'ada',
        version: 9007199254740993n,
        at: new Date('2026-01-02T03:04:05.678Z'),
        properties: { a: 'b' },
        names: ['x'],
        ok: true,
        n: 3,
      },
      {
        id: null,
        version: null,
        at: null,
        properties: null,
        names: [],
        ok: false,
        n: 0,
      },
    ]);
  });

  it('values the elements of bigint, timestamp and json arrays', () => {
    expect(
      adapterRows({
        columnNames: ['ids', 'times'],
        columnTypes: [ColumnTypeEnum.Int64Array, ColumnTypeEnum.DateTimeArray],
        rows: [[['1', null], ['2026-01-02T00:00:00+00:00']]],
      }),
    ).toStrictEqual([
      { ids: [1n, null], times: [new Date('2026-01-02T00:00:00Z')] },
    ]);
  });

  it('refuses a column type it would have to guess', () => {
    expect(() =>
      adapterRows({
        columnNames: ['amount'],
        columnTypes: [ColumnTypeEnum.Numeric],
        rows: [['1.50']],
      }),
    ).toThrow('A numeric column is not read through adapterRows');
  });
});
