import { boundedSettings, MAX_AUDIT_ENTRY_BYTES } from './events.repository';

const bytes = (value: object) => Buffer.byteLength(JSON.stringify(value));

describe('an audit log entry’s settings', () => {
  it('are kept whole within MAX_AUDIT_ENTRY_BYTES', () => {
    const settings = { before: { roles: ['a'] }, after: { roles: ['a', 'b'] } };
    expect(boundedSettings(settings)).toBe(settings);
  });

  it('have their lists and strings cut, marked, in nested objects too', () => {
    const link = { scopes: Array.from({ length: 300 }, (_, i) => `s${i}`) };
    const cut = boundedSettings({ after: { link, name: 'x'.repeat(30_000) } });
    expect(cut).toStrictEqual({
      after: {
        link: {
          scopes: [
            ...Array.from({ length: 20 }, (_, i) => `s${i}`),
            '… 280 more',
          ],
        },
        name: `${'x'.repeat(1000)}…`,
      },
    });
  });

  it('are replaced by a marker when even their keys do not fit', () => {
    const keys = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`key-${i}`, i]),
    );
    const cut = boundedSettings({ before: keys, after: keys });
    expect(cut).toStrictEqual({
      before: { truncated: true },
      after: { truncated: true },
    });
    expect(bytes(cut)).toBeLessThanOrEqual(MAX_AUDIT_ENTRY_BYTES);
    // A creation has no settings before: the marker makes up none.
    expect(boundedSettings({ after: keys })).toStrictEqual({
      after: { truncated: true },
    });
  });

  it('never keep half of a character that takes two UTF-16 units', () => {
    const name = `${'x'.repeat(999)}😀${'y'.repeat(30_000)}`;
    const cut = boundedSettings({ after: { name } }) as {
      after: { name: string };
    };
    expect(cut.after.name).toBe(`${'x'.repeat(999)}…`);
    expect(cut.after.name.isWellFormed()).toBe(true);
  });
});
