import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { RecordedStatement, recordStatements, Statement } from './sql';

// From src/database/ or, built, dist/database/: the modules load from
// beside this one, their source is read from src/.
const SRC = join(__dirname, '..', '..', 'src');
const SQL_MODULE = join(SRC, 'database', 'sql.ts');

/** A statement of a module by its name there; no SQL when it is built only on use. */
export interface NamedStatement {
  /** The module's path under src/. */
  readonly module: string;
  readonly name: string;
  readonly statement?: Statement<never, unknown>;
}

/**
 * Every statement of the modules of src/ by its name, in the order each
 * module builds them: the modules that call `statement(` are loaded, and the
 * statements their loading builds recorded.
 */
export function namedStatements(): NamedStatement[] {
  const modules = modulesWithStatements();
  return nameStatements(loadStatements(modules), modules);
}

/** The source files of src/ that call `statement(`, tests left out. */
function modulesWithStatements(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'generated' ? [] : modulesWithStatements(path);
    return entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.spec.ts') &&
      readFileSync(path, 'utf8').includes('statement(') &&
      statementCalls(parse(path)).length > 0
      ? [path]
      : [];
  });
}

let loaded: readonly RecordedStatement[] | undefined;

/** Loads the modules, recording the statements their loading builds. */
function loadStatements(modules: string[]): readonly RecordedStatement[] {
  if (!loaded) {
    const recorded = recordStatements();
    for (const module of modules)
      // By path, not by import: src/database/ depends on no feature module.
      require(
        join(__dirname, '..', relative(SRC, module).replace(/\.ts$/, '')),
      );
    loaded = [...recorded];
  }
  return loaded;
}

/**
 * Names each statement after where its module holds it: the constant
 * (`LOCK_ROLE`), the key or index in it (`KEY_TAKEN.userName`,
 * `ROLE_NAMES[0][1]`), and the call of a function that made it
 * (`BACKLOGS.all: backlogs(false)`); a number tells apart the statements of
 * one call in a loop. Read from the stack that built each statement, in the
 * source of `modules` and of any module its stack runs through. A
 * `statement(` call of `modules` that built none is named as built on use.
 */
export function nameStatements(
  recorded: readonly RecordedStatement[],
  modules: string[],
): NamedStatement[] {
  // `at`: the call or declaration that names it, which a number may share.
  const named: (NamedStatement & { call: ts.Node; at: ts.Node })[] = [];
  for (const { statement, stack } of recorded) {
    const calls = callsOf(stack);
    const top = calls.length - 1;
    const file = calls[top].getSourceFile().fileName;
    const holder = holderOf(calls[top]);
    if (holder === undefined)
      throw new Error(
        `A statement held by no constant, at ${where(calls[top])}: hold it in one to name it`,
      );
    const maker = top > 0 ? oneLine(calls[1].getText()) : '';
    named.push({
      module: relative(SRC, file).split(sep).join('/'),
      name: maker && maker.length <= 60 ? `${holder}: ${maker}` : holder,
      statement,
      call: calls[0],
      at: calls[top],
    });
  }
  const built = new Set(named.map((s) => s.call));
  for (const module of modules)
    for (const call of statementCalls(parse(module)))
      if (!built.has(call)) {
        const top = ts.findAncestor(call, (node) =>
          ts.isSourceFile(node.parent),
        );
        named.push({
          module: relative(SRC, module).split(sep).join('/'),
          name: `${top ? declaredName(top) : where(call)}: built on use, not listed`,
          call,
          at: top ?? call,
        });
      }
  return numbered(named).map(({ module, name, statement }) => ({
    module,
    name,
    statement,
  }));
}

/**
 * Numbers the statements of one call or declaration that share a name, in
 * the order they were built; refuses a name two places of a module give.
 */
function numbered<S extends NamedStatement & { at: ts.Node }>(named: S[]): S[] {
  const first = new Map<string, S>();
  const count = new Map<string, number>();
  for (const s of named) {
    const key = `${s.module} ${s.name}`;
    const other = first.get(key);
    if (other && other.at !== s.at)
      throw new Error(
        `Two statements of src/${s.module} are named ${s.name}: at ${where(other.at)} and ${where(s.at)}`,
      );
    first.set(key, other ?? s);
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  return named.map((s) => {
    const key = `${s.module} ${s.name}`;
    if (count.get(key) === 1) return s;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    return { ...s, name: `${s.name} #${seen.get(key)}` };
  });
}

/**
 * The calls of src/ a stack runs through, from the one that called
 * `statement` out to the first at a module's top level, which runs as the
 * module loads (frames further out are of the modules that imported it).
 */
function callsOf(stack: string): ts.CallExpression[] {
  const frames = stack.split('\n').flatMap((line) => {
    const at = line.trim().match(/\(?([^\s()]+\.ts):(\d+):(\d+)\)?$/);
    if (!at) return [];
    const file = at[1].startsWith('file:') ? fileURLToPath(at[1]) : at[1];
    return file.startsWith(SRC + sep) && file !== SQL_MODULE
      ? [{ file, line: +at[2], column: +at[3] }]
      : [];
  });
  const calls: ts.CallExpression[] = [];
  for (const { file, line, column } of frames) {
    const call = callAt(parse(file), line, column);
    if (!call)
      throw new Error(
        `No call at ${file}:${line}:${column}: has the file changed since it loaded?`,
      );
    calls.push(call);
    if (outerFunction(call) === undefined) return calls;
  }
  throw new Error(`A statement built after its module loaded:\n${stack}`);
}

/** The innermost call whose text holds the 1-based position. */
function callAt(source: ts.SourceFile, line: number, column: number) {
  const lineStart = source.getLineStarts()[line - 1] ?? source.end;
  const position = lineStart + column - 1;
  let found: ts.CallExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) found = node;
    ts.forEachChild(node, (child) =>
      child.getStart(source) <= position && position < child.end
        ? visit(child)
        : undefined,
    );
  };
  visit(source);
  return found;
}

function outerFunction(node: ts.Node): ts.Node | undefined {
  return ts.findAncestor(node.parent, ts.isFunctionLike);
}

/** `NAME`, `NAME.key` or `NAME[i]`: the constant holding the call's value. */
function holderOf(call: ts.Node): string | undefined {
  let path = '';
  for (let node = call; node.parent; node = node.parent) {
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent)) return parent.name.getText() + path;
    if (ts.isPropertyAssignment(parent))
      path = `.${parent.name.getText()}${path}`;
    else if (ts.isArrayLiteralExpression(parent))
      path = `[${parent.elements.indexOf(node as ts.Expression)}]${path}`;
    else if (ts.isStatement(parent)) return undefined;
  }
  return undefined;
}

/** The name a top-level statement declares. */
function declaredName(top: ts.Node): string {
  if (ts.isVariableStatement(top))
    return top.declarationList.declarations.map((d) => d.name.getText()).join();
  const name = (top as ts.DeclarationStatement).name?.getText();
  return name ?? where(top);
}

function statementCalls(source: ts.SourceFile): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'statement'
    )
      calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    const text = readFileSync(file, 'utf8');
    source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

function where(node: ts.Node): string {
  const source = node.getSourceFile();
  const { line } = source.getLineAndCharacterOfPosition(node.getStart());
  return `${relative(SRC, source.fileName)}:${line + 1}`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ');
