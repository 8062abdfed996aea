import { statementNames } from './statement-names';

const query = (sql: string, args: unknown[] = [1]) =>
  [sql, args.length] as const;

describe('statementNames', () => {
  it('names a text the same way every time, and two texts apart', () => {
    const name = statementNames();
    const a = name(...query('SELECT $1'));
    expect(a).toMatch(/^s[A-Za-z0-9_-]{26}$/);
    expect(name(...query('SELECT $1', [2]))).toBe(a);
    expect(name(...query('SELECT $1 + 1'))).not.toBe(a);
  });

  it('leaves statements without parameters, and texts past the bound, unnamed', () => {
    const name = statementNames(2);
    expect(name(...query('BEGIN', []))).toBe('');
    expect(name(...query('SELECT $1'))).not.toBe('');
    expect(name(...query('SELECT $1, $2'))).not.toBe('');
    expect(name(...query('SELECT $1, $2, $3'))).toBe('');
    expect(name(...query('SELECT $1'))).not.toBe('');
  });
});
