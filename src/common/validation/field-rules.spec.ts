import { isHttpUrl, parseUtcDateTime } from './field-rules';
import { findUnsafeKeys, tooDeep } from './field-errors';

describe('parseUtcDateTime', () => {
  it.each([
    ['2026-11-20T08:15:30.250', '2026-11-20T08:15:30.250Z'],
    ['2026-11-20T08:15:30.250Z', '2026-11-20T08:15:30.250Z'],
    ['2024-02-29T23:59:59.999', '2024-02-29T23:59:59.999Z'],
  ])('accepts %s', (value, iso) => {
    expect(parseUtcDateTime(value)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-11-20T08:15:30',
    '2026-11-20 08:15:30.250',
    '2025-02-29T00:00:00.000',
    '2026-13-01T00:00:00.000',
    '2026-01-01T24:00:00.000',
    '2026-01-01T00:00:00.000+00:00',
    42,
  ])('rejects %s', (value) => {
    expect(parseUtcDateTime(value)).toBeUndefined();
  });
});

describe('isHttpUrl', () => {
  it.each([
    ['https://example.org/a.png', true],
    ['http://localhost:8080/x', true],
    ['ftp://example.org/a', false],
    ['//example.org/a', false],
    ['/a.png', false],
    ['javascript:alert(1)', false],
    [7, false],
  ])('%s → %s', (value, expected) => {
    expect(isHttpUrl(value)).toBe(expected);
  });
});

describe('findUnsafeKeys', () => {
  it('finds prototype keys at any depth', () => {
    const value = JSON.parse(
      '{"a":[{"__proto__":{}}],"b":{"constructor":1},"c":{"ok":{"prototype":2}}}',
    );
    expect(findUnsafeKeys(value)).toStrictEqual([
      'a[0].__proto__',
      'b.constructor',
      'c.ok.prototype',
    ]);
  });

  it('lists them in document order, none below another', () => {
    const value = JSON.parse(
      '{"a":{"x":{"__proto__":{"constructor":1}}},"constructor":{"prototype":1},"z":[{"prototype":0}]}',
    );
    expect(findUnsafeKeys(value)).toStrictEqual([
      'a.x.__proto__',
      'constructor',
      'z[0].prototype',
    ]);
  });

  it('takes thousands of them in one pass (the red team’s 63 KB PUT body)', () => {
    const body = {
      givenNames: Array.from({ length: 3500 }, () => ({ constructor: 1 })),
    };
    const found = findUnsafeKeys(body);
    expect(found.length).toBe(3500);
    expect(found.at(-1)).toBe('givenNames[3499].constructor');
  });
});

describe('tooDeep', () => {
  const nested = (levels: number) =>
    JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);

  it('names the first value nested too deep, without exhausting the stack', () => {
    expect(tooDeep(nested(32))).toBeUndefined();
    expect(tooDeep(nested(33))).toBe(`${Array(33).fill('a').join('.')}`);
    expect(tooDeep({ list: [[[1]]] }, 3)).toBe('list[0][0][0]');
    expect(tooDeep(nested(100_000))).toBe(Array(33).fill('a').join('.'));
    expect(findUnsafeKeys(nested(100_000))).toStrictEqual([]);
  });

  it('reports an unsafe key once, not the keys under it', () => {
    expect(
      findUnsafeKeys(
        JSON.parse('{"__proto__":{"constructor":{"prototype":1}}}'),
      ),
    ).toStrictEqual(['__proto__']);
  });
});
