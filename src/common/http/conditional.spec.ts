import { contentTag, noneMatchFails } from './conditional';

describe('noneMatchFails', () => {
  it.each([
    [undefined, false],
    ['"7"', true],
    ['W/"7"', true],
    ['"1", W/"7"', true],
    ['*', true],
    ['"8"', false],
    ['7', false],
  ])('If-None-Match %s on "7" → %s', (header, expected) => {
    expect(noneMatchFails(header, '"7"')).toBe(expected);
  });
});

describe('contentTag', () => {
  it('is a strong tag that changes with the bytes', () => {
    expect(contentTag('[1]')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(contentTag('[1]')).toBe(contentTag('[1]'));
    expect(contentTag('[1]')).not.toBe(contentTag('[2]'));
  });
});
