import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { format } from 'sql-formatter';
import { Statement } from './sql';
import { NamedStatement, namedStatements } from './statement-origins';

/** The committed SQL: a file per module of src/ that builds statements. */
export const QUERIES = join(__dirname, '../../src/database/queries');

/**
 * Every file of src/database/queries/ as the statements write it, by file
 * name: what `npm run sql` writes and the test holds the committed files to.
 */
export function queryFiles(): Map<string, string> {
  const named = namedStatements();
  const files = new Map<string, string>();
  for (const module of new Set(named.map((s) => s.module)).values())
    files.set(
      `${module.replace(/\.ts$/, '').replaceAll('/', '.')}.sql`,
      queryFileText(
        module,
        named.filter((s) => s.module === module),
      ),
    );
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** How the files in `dir` differ from `files`: missing, extra, changed. */
export function queryFileDifferences(
  files: Map<string, string>,
  dir = QUERIES,
): string[] {
  const committed = existsSync(dir)
    ? readdirSync(dir).filter((name) => name.endsWith('.sql'))
    : [];
  return [
    ...[...files].flatMap(([name, text]) =>
      committed.includes(name)
        ? firstChange(name, readFileSync(join(dir, name), 'utf8'), text)
        : [`missing: ${name}`],
    ),
    ...committed
      .filter((name) => !files.has(name))
      .map((name) => `extra: ${name}`),
  ];
}

/** Writes `files` into `dir`, removing any other SQL file; the differences it mended. */
export function writeQueryFiles(
  files: Map<string, string>,
  dir = QUERIES,
): string[] {
  const differences = queryFileDifferences(files, dir);
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir))
    if (name.endsWith('.sql') && !files.has(name)) rmSync(join(dir, name));
  for (const [name, text] of files) {
    const path = join(dir, name);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text)
      writeFileSync(path, text);
  }
  return differences;
}

function firstChange(name: string, was: string, is: string): string[] {
  if (was === is) return [];
  const [a, b] = [was.split('\n'), is.split('\n')];
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return [
    `changed: ${name}, line ${at + 1}: committed ${JSON.stringify(a[at] ?? '')}, compiled ${JSON.stringify(b[at] ?? '')}`,
  ];
}

/** The committed file of a module's statements. */
export function queryFileText(module: string, named: NamedStatement[]): string {
  const parts = named.map(({ name, statement }) =>
    statement
      ? [
          `-- ${name}`,
          ...parameterLines(statement),
          `${formatted(statement)};`,
        ].join('\n')
      : `-- ${name}`,
  );
  return [
    `-- The statements of src/${module}, as PostgreSQL receives them.`,
    '-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.',
    '',
    parts.join('\n\n'),
    '',
  ].join('\n');
}

/** The statement's text laid out on lines; nothing but its white space changes. */
function formatted(statement: Statement<never, unknown>): string {
  const text = format(statement.text, { language: 'postgresql' });
  const bare = (sql: string) => sql.replace(/\s+/g, '');
  if (bare(text) !== bare(statement.text))
    throw new Error(`Formatting changed more than white space:\n${text}`);
  return text;
}

/** What each placeholder stands for: a parameter's name, or `= value`. */
function parameterLines(statement: Statement<never, unknown>): string[] {
  const names = new Proxy(
    {},
    { get: (_, name) => new Name(String(name)), has: () => true },
  );
  const parts = statement
    .values(names as never)
    .map((value, i) =>
      value instanceof Name
        ? `$${i + 1} ${value.name}`
        : `$${i + 1} = ${literal(value)}`,
    );
  const lines: string[] = [];
  for (const part of parts)
    if (lines.length > 0 && lines[lines.length - 1].length + part.length < 78)
      lines[lines.length - 1] += `, ${part}`;
    else lines.push(`-- ${part}`);
  return lines;
}

class Name {
  constructor(readonly name: string) {}
}

function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (value instanceof Date) return literal(value.toISOString());
  if (value === null || typeof value !== 'object') return String(value);
  return JSON.stringify(value);
}
