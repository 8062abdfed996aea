import { InvalidRequest } from './errors';
import { encodeCursor, pageFrom, pageOf } from './pagination';

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
