import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

// What docs/architecture.md says of the code, held true by reading the code.
const SRC = __dirname;
const DOC = readFileSync(join(SRC, '..', 'docs', 'architecture.md'), 'utf8');

/** Every folder and source file under src/, the generated client left out. */
function walk(
  dir: string,
  found = { dirs: [] as string[], files: [] as string[] },
) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'generated') continue;
      found.dirs.push(relative(SRC, path));
      walk(path, found);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      found.files.push(relative(SRC, path));
  }
  return found;
}
const { dirs, files } = walk(SRC);
const source = (file: string) => readFileSync(join(SRC, file), 'utf8');

/** Every relative import of src/, type-only ones too, as a graph of files. */
const target = (from: string, spec: string) => {
  const path = join(from, '..', spec);
  return [`${path}.ts`, join(path, 'index.ts')].find((f) => files.includes(f));
};
const imports = new Map(
  files.map((file) => [
    file,
    [...source(file).matchAll(/from '(\.[^']+)'/g)]
      .map(([, spec]) => target(file, spec))
      .filter((f): f is string => f !== undefined),
  ]),
);
/** The top-level folder of a file of src/ ('' for src/ itself). */
const folderOf = (file: string) =>
  file.includes('/') ? file.slice(0, file.indexOf('/')) : '';

/**
 * The layers of docs/architecture.md, lowest first: a folder imports only
 * from folders of lower layers ('' is src/ itself, the application modules).
 */
const LAYERS = [
  ['config'],
  ['database'],
  ['common'],
  ['events', 'ops'],
  ['identity'],
  ['auth'],
  ['tenants'],
  ['accounts', 'friends', 'roles', 'scim', 'admin'],
  ['webhooks', 'admin-identities'],
  [''],
];
const layerOf = (folder: string) =>
  LAYERS.findIndex((layer) => layer.includes(folder));

/**
 * The imports against the layers that docs/architecture.md names and
 * explains, as `from > to`; none now.
 */
const UPWARD_IMPORTS: string[] = [
  'config/app-config.ts > database/connection-string.ts',
];

describe('docs/architecture.md', () => {
  it('names every folder of src/', () => {
    expect(dirs.filter((dir) => !DOC.includes(`src/${dir}/`))).toStrictEqual(
      [],
    );
  });

  it('is right that only repositories, src/database/ and the SCIM filter compilation use Prisma', () => {
    const users = files.filter((file) =>
      /from '(\.\.\/)+generated\/prisma\/client'|from '\.\/generated\/prisma\/client'/.test(
        source(file),
      ),
    );
    expect(
      users.filter(
        (file) =>
          !file.endsWith('.repository.ts') &&
          !file.startsWith('database/') &&
          ![
            'scim/scim-filter.ts',
            'scim/scim-filter-attributes.ts',
            'scim/scim-fields.ts',
            'scim/groups/group-filter.ts',
          ].includes(file),
      ),
    ).toStrictEqual([]);
  });

  it('is right that the medium layer (test/medium/) calls every service', () => {
    const medium = readdirSync(join(SRC, '..', 'test', 'medium'))
      .map((name) =>
        readFileSync(join(SRC, '..', 'test', 'medium', name), 'utf8'),
      )
      .join('\n');
    const services = files
      .filter((file) => file.endsWith('.service.ts'))
      .flatMap((file) => [
        ...source(file).matchAll(/export class (\w+Service)\b/g),
      ])
      .map(([, name]) => name);
    expect(services.length).toBeGreaterThan(10);
    expect(
      services.filter(
        (name) => !new RegExp(`\\.get\\(${name}\\)`).test(medium),
      ),
    ).toStrictEqual([]);
  });

  it('is right that only identity-writes.ts draws versions', () => {
    expect(
      files.filter(
        (file) =>
          source(file).includes('identity_version_seq') &&
          !file.startsWith('generated/') &&
          file !== 'identity/identity-writes.ts',
      ),
    ).toStrictEqual([]);
  });

  it('is right that no query has rows typed by hand', () => {
    // Statements (src/database/sql.ts) are typed by the schema. A raw
    // session's driver plumbing (database.ts) passes a type through, and
    // the migrator reads Prisma's migrations table before any schema exists.
    const handTyped = /\.(query|\$queryRaw|\$queryRawUnsafe)</;
    expect(
      files.filter(
        (file) =>
          handTyped.test(source(file)) &&
          ![
            'database/sql.ts',
            'database/database.ts',
            'database/migrator.ts',
          ].includes(file),
      ),
    ).toStrictEqual([]);
  });

  it('is right that SQL runs one way: statements through the runners, Prisma through `models`', () => {
    // Outside src/database/ nothing reaches a connection, a pool, Prisma's
    // whole client, its raw SQL or its transactions: SQL goes through
    // Database's runners (`read`, `primary`, `aside`, a transaction's), the
    // model API through `models`.
    const reachesAround =
      /\$(queryRaw|executeRaw|transaction)|Unsafe\b|\.prisma\b|withSession|TransactionClient|PrismaClient\b|from '(pg|@electric-sql\/pglite|pglite-prisma-adapter|@prisma\/adapter-pg)'/;
    expect(
      files.filter(
        (file) =>
          !file.startsWith('database/') &&
          !file.startsWith('generated/') &&
          reachesAround.test(source(file).replace(/^\s*(\/\/|\*).*$/gm, '')),
      ),
    ).toStrictEqual([]);
    // Inside it, raw SQL text runs only where the runners and the migrations
    // stand on a connection.
    const rawText =
      /\$(queryRaw|executeRaw)|Unsafe\b|\.exec\(|\.query\(\{|\.query\(['`]/;
    expect(
      files.filter(
        (file) =>
          file.startsWith('database/') &&
          rawText.test(source(file)) &&
          ![
            'database/database.ts',
            'database/adapter-query.ts',
            'database/pool-statements.ts',
            'database/migrator.ts',
            'database/embedded-database.ts',
            'database/whole-exchanges.ts',
          ].includes(file),
      ),
    ).toStrictEqual([]);
  });

  it('is right that no function of src/ is longer than 80 lines', () => {
    const long: string[] = [];
    for (const file of files.filter((f) => !f.startsWith('generated/'))) {
      const tree = ts.createSourceFile(
        file,
        source(file),
        ts.ScriptTarget.Latest,
        true,
      );
      const line = (at: number) =>
        tree.getLineAndCharacterOfPosition(at).line + 1;
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const lines = line(node.end) - line(node.getStart()) + 1;
          if (lines > 80)
            long.push(`${file}:${line(node.getStart())} (${lines} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(tree);
    }
    expect(long).toStrictEqual([]);
  });

  it('is right that no files of src/ import each other in a circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' > '));
        return;
      }
      state.set(file, 'open');
      for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toStrictEqual([]);
  });

  it('is right that the top-level folders are layers, with no upward import but those it names', () => {
    const folders = [...new Set(files.map(folderOf))];
    expect(folders.filter((f) => layerOf(f) < 0)).toStrictEqual([]);
    const upward = [...imports].flatMap(([file, targets]) =>
      targets
        .filter(
          (t) =>
            folderOf(t) !== folderOf(file) &&
            layerOf(folderOf(t)) >= layerOf(folderOf(file)),
        )
        .map((t) => `${file} > ${t}`),
    );
    expect(upward).toStrictEqual(UPWARD_IMPORTS);
    for (const edge of UPWARD_IMPORTS)
      expect(DOC).toContain(edge.replace(' > ', '` imports `src/'));
  });

  it('is right that each provider has one module: no module provides a class another provides', () => {
    const providedBy = new Map<string, string[]>();
    for (const file of files.filter((f) => f.endsWith('.module.ts'))) {
      const text = source(file);
      const from = text.indexOf('providers: [');
      if (from < 0) continue;
      // The array's top-level entries: a class, or { provide: TOKEN, ... }.
      const entries: string[] = [];
      let depth = 0;
      let entry = '';
      for (const char of text.slice(from + 'providers: ['.length)) {
        if (depth === 0 && (char === ',' || char === ']')) {
          entries.push(entry.trim());
          entry = '';
          if (char === ']') break;
          continue;
        }
        if ('[{('.includes(char)) depth++;
        if (']})'.includes(char)) depth--;
        entry += char;
      }
      for (const e of entries) {
        const name =
          /^\{\s*provide:\s*(\w+)/.exec(e)?.[1] ?? /^\w+$/.exec(e)?.[0];
        // APP_GUARD and its kind are meant to be provided many times.
        if (name && !name.startsWith('APP_'))
          providedBy.set(name, [...(providedBy.get(name) ?? []), file]);
      }
    }
    expect(
      [...providedBy].filter(([, modules]) => modules.length > 1),
    ).toStrictEqual([]);
    expect(providedBy.get('IdentityRepository')).toStrictEqual([
      'identity/identity.module.ts',
    ]);
  });

  it('is right that every error a client is answered with is a class of src/common/errors.ts', () => {
    const elsewhere = files.filter(
      (file) =>
        file !== 'common/errors.ts' &&
        /class \w+ extends (DomainError|ScimError)\b/.test(source(file)),
    );
    expect(elsewhere).toStrictEqual([]);
  });
});
