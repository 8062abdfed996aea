import { createHash } from 'node:crypto';
import type { PrismaPg } from '@prisma/adapter-pg';

type StatementNames = NonNullable<
  NonNullable<
    ConstructorParameters<typeof PrismaPg>[1]
  >['statementNameGenerator']
>;

/** How many distinct statements a process prepares; beyond it, statements run unnamed. */
const MAX_PREPARED = 256;

/**
 * Names each statement after a digest of its SQL text, so that PostgreSQL
 * parses and plans it once per connection instead of on every request.
 * The name is stable per text (pg refuses one name for two texts) and
 * within PostgreSQL's 63 bytes; the number of names is bounded (a text
 * that varies, such as an `IN` list's length, cannot prepare without end),
 * and statements without parameters (BEGIN, COMMIT) stay unnamed.
 */
export function statementNames(max = MAX_PREPARED): StatementNames {
  const names = new Map<string, string>();
  return ({ sql, args }) => {
    if (args.length === 0) return '';
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= max) return '';
      name = `s${createHash('sha256').update(sql).digest('base64url').slice(0, 26)}`;
      names.set(sql, name);
    }
    return name;
  };
}
