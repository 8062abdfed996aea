import { sql } from 'kysely';
import { builder, statement } from '../src/database/sql';
import { useTestDatabase } from './support/test-database';

// The request path's statements run on the pool itself on PostgreSQL and on
// the driver adapter on an in-process PGlite; either way a row holds what
// Prisma's `$queryRaw` gives for the same statement and values.
const VALUES = statement(
  (p: { at: Date; big: bigint; texts: string[]; none: string | null }) =>
    builder.selectNoFrom([
      sql<bigint>`42::int8`.as('big'),
      sql<bigint>`${p.big}::int8 + 1`.as('bigParameter'),
      sql<(bigint | null)[]>`ARRAY[1, NULL, 9007199254740993]::int8[]`.as(
        'bigs',
      ),
      sql<bigint>`count(*)`.as('count'),
      sql<number>`7::int4`.as('int'),
      sql<boolean>`true`.as('flag'),
      sql<Date>`'2026-01-02T03:04:05.678+01:00'::timestamptz`.as('at'),
      sql<Date>`${p.at}::timestamptz`.as('atParameter'),
      sql<Date>`'2026-01-02 03:04:05.678'::timestamp`.as('local'),
      sql<Date[]>`ARRAY['2026-01-02T03:04:05Z'::timestamptz]`.as('ats'),
      sql<unknown>`'{"a": [1, "x"]}'::json`.as('json'),
      sql<unknown>`'{"b": true}'::jsonb`.as('jsonb'),
      sql<string[]>`ARRAY['a', 'b,c', NULL, '"q"', '']::text[]`.as('texts'),
      sql<string[]>`${p.texts}::text[]`.as('textsParameter'),
      sql<string>`'app'::token_type`.as('type'),
      sql<string>`'1b4e28ba-2fa1-11d2-883f-0016d3cca427'::uuid`.as('uuid'),
      sql<string | null>`${p.none}::text`.as('nothing'),
    ]),
);

const PARAMS = {
  at: new Date('2026-03-04T05:06:07.089Z'),
  big: 9007199254740993n,
  texts: ['x', 'y z', '{'],
  none: null,
};

describe('statement values', () => {
  const database = useTestDatabase();

  it('are what $queryRaw gives for the same statement', async () => {
    const [row] = await database.read.rows(VALUES, PARAMS);
    const [raw] = await database.prisma.$queryRawUnsafe<unknown[]>(
      VALUES.text,
      ...VALUES.values(PARAMS),
    );
    expect(row).toStrictEqual({
      big: 42n,
      bigParameter: 9007199254740994n,
      bigs: [1n, null, 9007199254740993n],
      count: 1n,
      int: 7,
      flag: true,
      at: new Date('2026-01-02T02:04:05.678Z'),
      atParameter: new Date('2026-03-04T05:06:07.089Z'),
      local: new Date('2026-01-02T03:04:05.678Z'),
      ats: [new Date('2026-01-02T03:04:05Z')],
      json: { a: [1, 'x'] },
      jsonb: { b: true },
      texts: ['a', 'b,c', null, '"q"', ''],
      textsParameter: ['x', 'y z', '{'],
      type: 'app',
      uuid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
      nothing: null,
    });
    expect(row).toStrictEqual(raw);
  });
});
