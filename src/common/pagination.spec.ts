import { encodeCursor, toPage } from './pagination';
import { InvalidRequest } from './errors';

describe('cursors', () => {
  it('round-trip the sort key of the last element', () => {
    const cursor = encodeCursor(['Zoë', 'id-1']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(toPage({ limit: '5', cursor }, 2)).toStrictEqual({
      limit: 5,
      after: ['Zoë', 'id-1'],
    });
  });

  it.each([
    ['not json', Buffer.from('nope').toString('base64url')],
    ['wrong length', encodeCursor(['a'])],
    ['not strings', Buffer.from('[1,2]').toString('base64url')],
  ])('reject a cursor that is %s', (_what, cursor) => {
    expect(() => toPage({ cursor }, 2)).toThrow(InvalidRequest);
  });
});
