import { InvalidRequest } from './errors';
import {
  encodeCursor,
  instantKey,
  int4Key,
  int8Key,
  pageFrom,
  pageOf,
  uuidKey,
} from './pagination';

const ORDER = ['displayName', 'identityId'] as const;

describe('cursors', () => {
  it('round-trip the sort key of the last element', () => {
    const cursor = encodeCursor(['Zoë', 'id-1']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(pageOf({ limit: '5', cursor }, ORDER)).toStrictEqual({
      limit: 5,
      after: ['Zoë', 'id-1'],
    });
  });

  it.each([
    ['not json', Buffer.from('nope').toString('base64url')],
    ['wrong length', encodeCursor(['a'])],
    ['not strings', Buffer.from('[1,2]').toString('base64url')],
  ])('reject a cursor that is %s', (_what, cursor) => {
    expect(() => pageOf({ cursor }, ORDER)).toThrow(InvalidRequest);
  });
});

describe('the key values of a cursor', () => {
  it.each([
    ['int4', int4Key, '2147483647', 2147483647],
    ['int4', int4Key, '-2147483648', -2147483648],
    ['int8', int8Key, '9223372036854775807', 9223372036854775807n],
    ['int8', int8Key, '0', 0n],
    [
      'uuid',
      uuidKey,
      '0b5e6a2c-1d3f-4e5a-8b9c-0d1e2f3a4b5c',
      '0b5e6a2c-1d3f-4e5a-8b9c-0d1e2f3a4b5c',
    ],
    [
      'instant',
      instantKey,
      '2026-11-27T03:35:11.000Z',
      new Date('2026-11-27T03:35:11.000Z'),
    ],
    [
      'instant',
      instantKey,
      '0001-01-01T00:00:00.000Z',
      new Date('0001-01-01T00:00:00.000Z'),
    ],
  ] as const)(
    'read a %s key the service wrote: %s',
    (_kind, read, value, key) => {
      expect((read as (v: string) => unknown)(value)).toStrictEqual(key);
    },
  );

  it.each([
    [
      'int4',
      int4Key,
      ['2147483648', '-2147483649', '1e3', '01', '-0', ' 1', '1.0', '0x1f', ''],
    ],
    [
      'int8',
      int8Key,
      [
        '9223372036854775808',
        '-9223372036854775809',
        '99999999999999999999',
        'NaN',
        '+1',
      ],
    ],
    [
      'uuid',
      uuidKey,
      [
        'x',
        '0b5e6a2c1d3f4e5a8b9c0d1e2f3a4b5c',
        '0b5e6a2c-1d3f-4e5a-8b9c-0d1e2f3a4b5g',
      ],
    ],
    [
      'instant',
      instantKey,
      [
        '-271821-04-20T00:00:00.000Z',
        '+275760-09-13T00:00:00.000Z',
        '0000-01-01T00:00:00.000Z',
        '2026-02-30T00:00:00.000Z',
        '2026-01-01',
        '2026-01-01T00:00:00Z',
      ],
    ],
  ] as const)(
    'refuse a %s key no column of its type holds',
    (_kind, read, values) => {
      for (const value of values)
        expect(() => (read as (v: string) => unknown)(value)).toThrow(
          expect.objectContaining({
            status: 400,
            message: 'cursor is not a cursor this service issued',
            errors: [
              {
                field: 'cursor',
                message: 'is not a cursor this service issued',
              },
            ],
          }),
        );
    },
  );
});

describe('pageFrom', () => {
  const key = (n: number) => [String(n)];

  it('keeps a whole collection or a last page as it is', () => {
    expect(pageFrom([1, 2], {}, key)).toStrictEqual({ items: [1, 2] });
    expect(pageFrom([1, 2], { limit: 2 }, key)).toStrictEqual({
      items: [1, 2],
    });
  });

  it('trims the extra element and names the next page after the last one kept', () => {
    expect(pageFrom([1, 2, 3], { limit: 2 }, key)).toStrictEqual({
      items: [1, 2],
      next: { limit: 2, after: ['2'] },
    });
  });
});
