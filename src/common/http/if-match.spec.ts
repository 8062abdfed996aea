import { ifMatchAllows } from './if-match';

describe('ifMatchAllows', () => {
  it.each([
    [undefined, true],
    ['*', true],
    ['"7"', true],
    ['"1", "7"', true],
    ['"7-abc"', true],
    ['"8"', false],
    ['"70"', false],
    ['W/"7"', false],
    ['7', false],
  ])('If-Match %s on version 7 → %s', (header, expected) => {
    expect(ifMatchAllows(header, '7')).toBe(expected);
  });
});
