import { createHash } from 'node:crypto';

/** The name to prepare a statement's text under; '' to run it unnamed. */
export type StatementNames = (text: string, parameterCount: number) => string;

/** How many distinct statements a process prepares; beyond it, statements run unnamed. */
const MAX_PREPARED = 256;

/**
 * Names each statement after a digest of its SQL text, so that PostgreSQL
 * parses and plans it once per connection instead of on every request.
 * The name is stable per text (pg refuses one name for two texts) and
 * within PostgreSQL's 63 bytes; the number of names is bounded (a text
 * that varies, such as an `IN` list's length, cannot prepare without end),
 * and statements without parameters (BEGIN, COMMIT) stay unnamed. One
 * generator serves a pool's driver adapter and its statements
 * (pool-statements.ts), so that both name a text alike.
 */
export function statementNames(max = MAX_PREPARED): StatementNames {
  const names = new Map<string, string>();
  return (text, parameterCount) => {
    if (parameterCount === 0) return '';
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= max) return '';
      name = `s${createHash('sha256').update(text).digest('base64url').slice(0, 26)}`;
      names.set(text, name);
    }
    return name;
  };
}
