import { describeDatabaseUrl } from '../src/database/database-url';
import { runCli } from '../src/cli';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import {
  createTestDatabase,
  databaseKind,
  TestDatabase,
} from './support/test-database';

// The command line as an operator runs it, configured through the
// environment only. The built `dist/cli.js` runs in a process of its own
// where the process itself is under test: the database it names, its exit
// codes, standard input, the environment it reads. The other commands run
// in this process through runCli, the function that binary calls with the
// process's streams and environment, given the same environment and
// standard input; each opens the database and closes it as a process of the
// binary does, and whatever the application writes to the process's own
// streams (its logger) is in its output as well. Starting a process costs
// seconds before any command runs, and the commands run by the dozen here.
const ROOT = resolve(__dirname, '..');
const EXAMPLE = join(ROOT, 'test', 'fixtures', 'example-tenant.json');

/** What a command is given besides its arguments: more variables, standard input. */
interface Given {
  more?: NodeJS.ProcessEnv;
  input?: string;
}

describe('command line', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const work = mkdtempSync(join(tmpdir(), 'identity-cli-'));

  const cli = (...args: string[]) => cliWith({}, ...args);
  /** The command, in this process, with more variables or with standard input. */
  const cliWith = async ({ more = {}, input }: Given, ...args: string[]) => {
    const written = { out: '', err: '' };
    const restore = [
      divert(process.stdout, (text) => (written.out += text)),
      divert(process.stderr, (text) => (written.err += text)),
    ];
    try {
      const code = await runCli(args, {
        stdout: { write: (text: string) => (written.out += text) },
        stderr: { write: (text: string) => (written.err += text) },
        stdin: Readable.from(input === undefined ? [] : [input]),
        env: { ...env, ...more },
      });
      return seen(code, written.out, written.err);
    } finally {
      for (const undo of restore) undo();
    }
  };

  const binary = (...args: string[]) => binaryWith({}, ...args);
  /** The command as a process of the built binary. */
  const binaryWith = ({ more = {}, input }: Given, ...args: string[]) => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), ...args],
      { env: { ...env, ...more }, encoding: 'utf8', cwd: ROOT, input },
    );
    return seen(r.status, r.stdout, r.stderr);
  };

  beforeAll(async () => {
    db = await createTestDatabase({}, { empty: true });
    const { databaseUrl } = db.config;
    env = {
      PATH: process.env.PATH,
      // Its tenants' issuers and providers are on loopback.
      EGRESS_PRIVATE_NETWORK_TENANTS: 'example',
      ...(databaseUrl
        ? { DATABASE_URL: databaseUrl }
        : { DATA_DIR: join(work, 'pglite') }),
    };
  });
  afterAll(() => db.drop());

  it('names the database it works on, before anything else', () => {
    // The binary, on a database it migrates from empty.
    const { code, database } = binary('migrate');
    expect(code).toBe(0);
    if (db.config.databaseUrl)
      expect(database).toBe(
        `PostgreSQL at ${describeDatabaseUrl(db.config.databaseUrl)}`,
      );
    else expect(database).toBe(`embedded PGlite at ${join(work, 'pglite')}`);
  });

  it('migrates, imports, refuses a second import and replaces on request', async () => {
    expect(await cli('migrate')).toMatchObject({
      code: 0,
      out: 'Migrations are up to date.\n',
    });
    const first = await cli('import', EXAMPLE);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(
      /^Imported tenant "example": 4 identities, 4 accounts, 3 friendships, 8 tokens in \d+ ms\.\n$/,
    );
    expect(await cli('import', EXAMPLE)).toMatchObject({
      code: 1,
      err: 'tenant.id: tenant "example" exists already; import with --replace to replace it\n',
    });
    expect((await cli('import', EXAMPLE, '--replace')).out).toMatch(
      /^Replaced tenant "example"/,
    );
    // A tenant that does not exist yet loses nothing: no notice.
    const fresh = join(work, 'fresh-tenant.json');
    const file = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
    file.tenant.id = 'fresh';
    file.tenant.tokenIssuers = [];
    file.tokens = [];
    writeFileSync(fresh, JSON.stringify(file));
    expect(await cli('import', fresh, '--replace')).toMatchObject({
      code: 0,
      err: '',
    });
  });

  // On the embedded database every command opens the database anew, which
  // takes seconds: there the tests around these show that the commands
  // work on it, and the commands' own logic is tested on PostgreSQL.
  if (databaseKind() === 'postgres')
    describe('on PostgreSQL', () => {
      it('says what a replace removes before it does, and keeps the tokens the file does not list unless --replace-tokens', async () => {
        const secret = (
          await cli(
            'token',
            'create',
            '--tenant',
            'example',
            '--app',
            'directory',
            '--scope',
            'scim:provision',
          )
        ).out.trim();
        const replaced = await cli('import', EXAMPLE, '--replace');
        expect(replaced.code).toBe(0);
        expect(replaced.err).toContain(
          'Replacing tenant "example" removes 0 identities the file lacks and 0 tokens (of the identities and accounts that go); it keeps 1 token the file does not list.\n',
        );
        expect(replaced.out).toMatch(/; 1 token kept, 0 removed\.\n$/);
        expect(
          (await cli('token', 'revoke', '--tenant', 'example', secret)).code,
        ).toBe(0);
        await cli('token', 'create', '--tenant', 'example', '--app', 'other');
        const all = await cli(
          'import',
          EXAMPLE,
          '--replace',
          '--replace-tokens',
        );
        expect(all.err).toContain(
          'Replacing tenant "example" removes 0 identities the file lacks and 2 tokens (every token the file does not list); it keeps 0 tokens the file does not list.\n',
        );
        expect(await cli('import', EXAMPLE, '--replace-tokens')).toMatchObject({
          code: 2,
        });
      });

      it('prints the JSON path of an error in a broken file and changes nothing', async () => {
        const before = (await cli('export', 'example')).out;
        const broken = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
        broken.identities[3].accounts = [
          { accountProviderId: 'gitlab', issuedUserId: 'x' },
        ];
        broken.identities[0].locality = 'english';
        const file = join(work, 'broken.json');
        writeFileSync(file, JSON.stringify(broken));
        const result = await cli('import', file, '--replace');
        expect(result.code).toBe(1);
        expect(result.err).toBe(
          'identities[0].locality: must be a locality of the form xx-XX (ISO 639-1 language, ISO 3166-1 country)\n',
        );
        broken.identities[0].locality = 'en-GB';
        writeFileSync(file, JSON.stringify(broken));
        expect((await cli('import', file, '--replace')).err).toBe(
          'identities[3].accounts[0].accountProviderId: unknown provider "gitlab"\n',
        );
        expect((await cli('export', 'example')).out).toBe(before);
      });

      it('exports a tenant in the import format, to stdout or a file', async () => {
        const out = await cli('export', 'example');
        expect(out.code).toBe(0);
        const exported = JSON.parse(out.out);
        expect(exported.tenant).toStrictEqual({
          id: 'example',
          name: 'Example Community',
          adminRoles: ['admin'],
        });
        expect(
          exported.identities.map((i: { identityId: string }) => i.identityId),
        ).toStrictEqual(['ada', 'charles', 'grace', 'mary']);
        expect(exported.tokens).toBeUndefined();
        const file = join(work, 'export.json');
        expect((await cli('export', 'example', '--output', file)).code).toBe(0);
        expect(readFileSync(file, 'utf8')).toBe(out.out);
        expect(await cli('export', 'nosuch')).toMatchObject({
          code: 1,
          err: 'Unknown tenant "nosuch".\n',
        });
      });

      it('creates, lists and revokes tokens without ever showing a stored secret', async () => {
        const created = await cli(
          'token',
          'create',
          '--tenant',
          'example',
          '--identity',
          'ada',
          '--account',
          'acc-ada-google-1',
          '--ttl',
          '1h',
        );
        expect(created.code).toBe(0);
        const secret = created.out.trim();
        expect(secret).toMatch(/^idt_[A-Za-z0-9_-]{43}$/);
        const app = await cli(
          'token',
          'create',
          '--tenant',
          'example',
          '--app',
          'crm2',
          '--scope',
          'identities:read',
          '--scope',
          'identities:delete',
        );
        expect(app.code).toBe(0);

        const listed = await cli('token', 'list', '--tenant', 'example');
        expect(listed.out).not.toContain(secret);
        const lines = listed.out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        expect(lines).toHaveLength(10);
        expect(lines.at(-2)).toMatchObject({
          type: 'access',
          owner: 'ada',
          accountId: 'acc-ada-google-1',
          scopes: [],
          revoked: false,
        });
        expect(lines.at(-1)).toMatchObject({
          type: 'app',
          owner: 'crm2',
          scopes: ['identities:read', 'identities:delete'],
          expiresAt: null,
        });

        expect(
          await cli('token', 'revoke', '--tenant', 'example', secret),
        ).toMatchObject({ code: 0, out: 'Revoked.\n' });
        // By the id token list shows: the app token listed last.
        const id = lines.at(-1).id as string;
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(
          await cli('token', 'revoke', '--tenant', 'example', id),
        ).toMatchObject({
          code: 0,
          out: 'Revoked.\n',
        });
        const after = (await cli('token', 'list', '--tenant', 'example')).out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        expect(after.find((t) => t.id === id)).toMatchObject({ revoked: true });
        expect(
          await cli('token', 'revoke', '--tenant', 'example', secret),
        ).toMatchObject({
          code: 1,
          err: 'No live token with that id or secret in this tenant.\n',
        });
      });

      it('refuses bad token requests with a clear message', async () => {
        expect(
          await cli(
            'token',
            'create',
            '--tenant',
            'example',
            '--identity',
            'nobody',
          ),
        ).toMatchObject({
          code: 1,
          err: 'Unknown identity "nobody" in tenant "example".\n',
        });
        expect(
          await cli(
            'token',
            'create',
            '--tenant',
            'example',
            '--app',
            'x',
            '--scope',
            'everything',
          ),
        ).toMatchObject({
          code: 1,
          err: 'Unknown scope everything; known: identities:read, identities:delete, scim:provision, accounts:write, friends:write, tenant:admin.\n',
        });
        expect(
          await cli(
            'token',
            'create',
            '--tenant',
            'example',
            '--app',
            'x',
            '--ttl',
            'forever',
          ),
        ).toStrictEqual({
          code: 2,
          out: '',
          err: '--ttl takes a number and a unit: 90s, 15m, 1h, 7d.\nHelp: npm run cli -- token create --help\n',
          database: undefined,
        });
      });

      it('merges identities and refuses a merge that breaks a one-account provider', async () => {
        expect(
          await cli(
            'merge',
            '--tenant',
            'example',
            '--into',
            'mary',
            '--from',
            'grace',
          ),
        ).toMatchObject({
          code: 0,
          out: 'Merged "grace" into "mary".\n',
        });
        const exported = JSON.parse((await cli('export', 'example')).out);
        const mary = exported.identities.find(
          (i: { identityId: string }) => i.identityId === 'mary',
        );
        expect(mary.oldIdentityIds).toStrictEqual(['grace']);
        expect(mary.roles).toStrictEqual(['member']);
        expect(
          await cli(
            'merge',
            '--tenant',
            'example',
            '--into',
            'ada',
            '--from',
            'nobody',
          ),
        ).toMatchObject({
          code: 1,
          err: 'No identity "nobody" in tenant "example".\n',
        });
      });

      it('prints the change log in order, after an id', async () => {
        const all = await cli('events', '--tenant', 'example');
        expect(all.code).toBe(0);
        const events = all.out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        expect(events.at(-2)).toMatchObject({
          identityId: 'mary',
          type: 'merged',
          fields: ['roles', 'oldIdentityIds'],
          relatedIdentityId: 'grace',
        });
        expect(events.at(-1)).toMatchObject({
          identityId: 'grace',
          type: 'deleted',
          fields: [],
          relatedIdentityId: 'mary',
        });
        expect(Object.keys(events.at(-1)).sort()).toStrictEqual([
          'fields',
          'id',
          'identityId',
          'occurredAt',
          'relatedIdentityId',
          'tenantId',
          'type',
        ]);
        const ids = events.map((e: { id: string }) => BigInt(e.id));
        expect(ids).toStrictEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
        const after = await cli(
          'events',
          '--tenant',
          'example',
          '--after',
          events.at(-2).id,
        );
        expect(
          after.out
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        ).toStrictEqual([events.at(-1)]);
        expect(
          await cli('events', '--tenant', 'example', '--after', 'x'),
        ).toMatchObject({
          code: 2,
          err: '--after takes an event id.\nHelp: npm run cli -- events --help\n',
        });
      });

      it('changes settings, providers and issuers one at a time, and prints the audit log', async () => {
        const json = (r: { code: number | null; out: string }) => {
          expect(r.code).toBe(0);
          return JSON.parse(r.out);
        };
        expect(
          json(await cli('tenant', 'show', '--tenant', 'example')),
        ).toMatchObject({
          id: 'example',
        });
        expect(
          json(
            await cli(
              'tenant',
              'set',
              '--tenant',
              'example',
              '--admin-role',
              'ops',
              '--admin-role',
              'admin',
            ),
          ).adminRoles,
        ).toStrictEqual(['ops', 'admin']);
        expect(
          json(
            await cli(
              'provider',
              'add',
              '--tenant',
              'example',
              'gitlab',
              '--sign-in-url',
              'https://gitlab.example.test/link',
            ),
          ),
        ).toStrictEqual({
          accountProviderId: 'gitlab',
          signInUrl: 'https://gitlab.example.test/link',
          allowsMultipleAccounts: false,
        });
        expect(
          json(
            await cli(
              'provider',
              'set',
              '--tenant',
              'example',
              'gitlab',
              '--display-name',
              'GitLab',
              '--multiple-accounts',
            ),
          ),
        ).toStrictEqual({
          accountProviderId: 'gitlab',
          displayName: 'GitLab',
          signInUrl: 'https://gitlab.example.test/link',
          allowsMultipleAccounts: true,
        });
        const link = {
          type: 'oidc',
          issuer: 'http://127.0.0.1:9/',
          clientId: 'cli',
        };
        expect(
          json(
            await cli(
              'provider',
              'set',
              '--tenant',
              'example',
              'gitlab',
              '--json',
              JSON.stringify({ link }),
            ),
          ).link,
        ).toStrictEqual(link);
        expect(
          json(
            await cli(
              'provider',
              'set',
              '--tenant',
              'example',
              'gitlab',
              '--json',
              '{"link":null}',
            ),
          ).link,
        ).toBeUndefined();
        expect(
          json(
            await cli(
              'tenant',
              'set',
              '--tenant',
              'example',
              '--link-return-url',
              'https://app.example.test/linked',
            ),
          ).linkReturnUrls,
        ).toStrictEqual(['https://app.example.test/linked']);
        expect(
          await cli(
            'provider',
            'set',
            '--tenant',
            'example',
            'gitlab',
            '--sign-in-url',
            'nope',
          ),
        ).toMatchObject({
          code: 1,
          err: 'signInUrl must be an absolute http(s) URL\n',
        });
        expect(
          await cli('provider', 'remove', '--tenant', 'example', 'google'),
        ).toMatchObject({
          code: 1,
          err: expect.stringMatching(
            /^\d+ accounts are at "google"; .*--delete-accounts\)\.\n$/,
          ),
        });
        const issuer = json(
          await cli(
            'issuer',
            'add',
            '--tenant',
            'example',
            '--json',
            JSON.stringify({
              issuer: 'http://127.0.0.1:9/cli',
              audiences: ['a'],
              jwksUri: 'http://127.0.0.1:9/cli/jwks',
            }),
          ),
        );
        expect(issuer).toMatchObject({
          issuer: 'http://127.0.0.1:9/cli',
          audiences: ['a'],
        });
        // set changes the keys given; null removes an optional one.
        const changed = json(
          await cli(
            'issuer',
            'set',
            '--tenant',
            'example',
            issuer.id,
            '--json',
            '{"audiences":["b"],"jwksUri":null}',
          ),
        );
        const { jwksUri: _removed, ...kept } = issuer;
        expect(changed).toStrictEqual({ ...kept, audiences: ['b'] });
        expect((await cli('issuer', 'list', '--tenant', 'example')).out).toBe(
          `${JSON.stringify(changed)}\n`,
        );
        expect(
          await cli('issuer', 'add', '--tenant', 'example', '--json', '{'),
        ).toMatchObject({
          code: 2,
          err: expect.stringMatching(/^--json is not JSON/),
        });
        expect(
          await cli(
            'issuer',
            'remove',
            '--tenant',
            'example',
            'http://127.0.0.1:9/cli',
          ),
        ).toMatchObject({
          code: 0,
          out: 'Removed issuer "http://127.0.0.1:9/cli".\n',
        });
        expect(
          await cli('provider', 'remove', '--tenant', 'example', 'gitlab'),
        ).toMatchObject({ code: 0, out: 'Removed provider "gitlab".\n' });
        expect(
          await cli('provider', 'list', '--tenant', 'nosuch'),
        ).toMatchObject({
          code: 1,
          err: 'Unknown tenant "nosuch".\n',
        });
        const audit = (await cli('audit', '--tenant', 'example')).out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        // The replaces of the tests above are there, with their settings.
        expect(audit.find((e) => e.action === 'tenant.replaced')).toMatchObject(
          {
            actor: 'cli',
            target: 'tenant',
            before: {
              name: expect.any(String),
              accountProviders: expect.any(Array),
            },
            after: { tokenIssuers: expect.any(Array) },
          },
        );
        const changes = audit.filter(
          (e) =>
            !e.action.startsWith('token.') && e.action !== 'tenant.replaced',
        );
        expect(changes.map((e) => [e.actor, e.action, e.target])).toStrictEqual(
          [
            ['cli', 'tenant.updated', 'tenant'],
            ['cli', 'provider.created', 'provider:gitlab'],
            ['cli', 'provider.updated', 'provider:gitlab'],
            ['cli', 'provider.updated', 'provider:gitlab'],
            ['cli', 'provider.updated', 'provider:gitlab'],
            ['cli', 'tenant.updated', 'tenant'],
            ['cli', 'issuer.created', 'issuer:http://127.0.0.1:9/cli'],
            ['cli', 'issuer.updated', 'issuer:http://127.0.0.1:9/cli'],
            ['cli', 'issuer.deleted', 'issuer:http://127.0.0.1:9/cli'],
            ['cli', 'provider.deleted', 'provider:gitlab'],
          ],
        );
        // One action's entries, one actor's, as GET /events filters them.
        const lines = async (...filter: string[]) =>
          (await cli('audit', '--tenant', 'example', ...filter)).out
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line));
        expect(
          (await lines('--action', 'provider.updated')).map((e) => [
            e.actor,
            e.action,
            e.target,
          ]),
        ).toStrictEqual(
          Array(3).fill(['cli', 'provider.updated', 'provider:gitlab']),
        );
        expect(await lines('--actor', 'cli')).toStrictEqual(audit);
        expect(
          await cli('audit', '--tenant', 'example', '--actor', 'app:nobody'),
        ).toMatchObject({ code: 0, out: '' });
        expect(
          await cli('audit', '--tenant', 'example', '--action', 'token.used'),
        ).toMatchObject({
          code: 2,
          err: expect.stringMatching(
            /^--action takes one of tenant\.updated, .*, webhook\.replayed\.\nHelp: npm run cli -- audit --help\n$/,
          ),
        });
      });
    });

  it('keeps client secrets sealed under the operator’s keys, and rotates them', async () => {
    const file = join(work, 'keys-tenant.json');
    const secret = (clientSecret?: string) => ({
      type: 'oidc',
      issuer: 'https://gh.example.test/',
      clientId: 'c',
      ...(clientSecret && { clientSecret }),
    });
    writeFileSync(
      file,
      JSON.stringify({
        tenant: { id: 'keys', name: 'Keys' },
        accountProviders: [
          {
            accountProviderId: 'gh',
            signInUrl: 'https://gh.example.test/',
            link: secret('from-the-file'),
          },
        ],
      }),
    );
    const key = (id: string, byte: number) =>
      `${id}:${Buffer.alloc(32, byte).toString('base64')}`;
    const onPostgres = Boolean(db.config.databaseUrl);
    const keys = (...given: string[]) =>
      onPostgres ? { SECRET_KEYS: given.join(',') } : {};
    if (onPostgres)
      expect(await cli('import', file)).toMatchObject({
        code: 1,
        err: 'The service holds no key to seal client secrets with; its operator sets SECRET_KEYS or SECRET_KEYS_FILE.\n',
      });
    const k1 = key('k1', 1);
    expect((await cliWith({ more: keys(k1) }, 'import', file)).code).toBe(0);
    // The binary: the secret comes through the process's standard input.
    const set = binaryWith(
      { more: keys(k1), input: 'from-stdin\n' },
      'provider',
      'set',
      '--tenant',
      'keys',
      'gh',
      '--client-secret-stdin',
    );
    expect([set.code, JSON.parse(set.out).link]).toStrictEqual([
      0,
      {
        ...secret(),
        clientSecretSetAt: expect.stringMatching(/^\d{4}-.*Z$/),
      },
    ]);
    const exported = (await cliWith({ more: keys(k1) }, 'export', 'keys')).out;
    expect(exported).not.toMatch(/from-the-file|from-stdin/);
    const rotated = await cliWith(
      { more: keys(key('k2', 2), k1) },
      'secret-keys',
      'rotate',
    );
    if (onPostgres) {
      expect(rotated).toMatchObject({
        code: 0,
        out: '1 client secret sealed anew under key "k2". Keys other than it now seal nothing.\n',
      });
      expect(
        await cliWith({ more: keys(k1) }, 'secret-keys', 'rotate'),
      ).toMatchObject({
        code: 1,
        out: '0 client secrets sealed anew under key "k1". 1 secret no key of this command opens (keys/gh): set them again.\n',
      });
      expect(
        (await cliWith({ more: keys(key('k2', 2)) }, 'secret-keys', 'rotate'))
          .out,
      ).toBe(
        '0 client secrets sealed anew under key "k2". Keys other than it now seal nothing.\n',
      );
    } else {
      // The embedded database keeps its own key file, owner only.
      const keyFile = `${env.DATA_DIR}.secret-keys`;
      const added =
        /^Added key "(k[0-9a-f]{8})" to the embedded database's key file\. 1 client secret sealed anew under key "\1"\. Keys other than it now seal nothing\.\n$/;
      expect(rotated).toMatchObject({
        code: 0,
        out: expect.stringMatching(added),
      });
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(
        readFileSync(keyFile, 'utf8')
          .split('\n')
          .filter((line) => /^k[0-9a-f]{8}:/.test(line)),
      ).toHaveLength(2);
    }
    // Sealed anew, set when it was: the same time of setting.
    expect(
      JSON.parse(
        (await cliWith({ more: keys(key('k2', 2)) }, 'export', 'keys')).out,
      ).accountProviders[0].link,
    ).toStrictEqual(JSON.parse(exported).accountProviders[0].link);
  });

  it('explains its usage', () => {
    // The binary: its exit code 2.
    const result = binary();
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^Usage: npm run cli -- <command>/);
  });

  it('prints help on standard output, exit code 0, without opening a database', async () => {
    const closed = {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await closedPort()}/closed`,
    };
    const help = (...args: string[]) => cliWith({ more: closed }, ...args);
    // The binary, and in this process the same.
    const usage = binaryWith({ more: closed }, '--help');
    expect(usage).toMatchObject({ code: 0, err: '', database: undefined });
    expect(usage.out).toMatch(/^Usage: npm run cli -- <command>/);
    expect(usage.out).toContain('\n  token create --tenant <t> ');
    expect(await help('--help')).toStrictEqual(usage);
    expect(await help('help')).toStrictEqual(usage);
    const create = await help('token', 'create', '--help');
    expect(create).toMatchObject({ code: 0, err: '', database: undefined });
    expect(create.out).toMatch(
      /^Usage: npm run cli -- token create --tenant <t>\n/,
    );
    expect(create.out).toContain('\n  --ttl <n>(s|m|h|d)   how long it lives');
    expect(await help('help', 'token', 'create')).toStrictEqual(create);
  });

  it('refuses wrong usage with exit code 2 before it opens the database', async () => {
    expect(await cli('token', 'create', '--tenant', 'demo')).toStrictEqual({
      code: 2,
      out: '',
      err: 'Name either --identity (an access token) or --app (an app token).\nHelp: npm run cli -- token create --help\n',
      database: undefined,
    });
    expect(
      await cli('token', 'list', '--tenant', 'demo', '--all'),
    ).toMatchObject({
      code: 2,
      out: '',
      err: expect.stringMatching(
        /^Unknown option '--all'\..*\nHelp: npm run cli -- token list --help\n$/,
      ),
      database: undefined,
    });
  });

  it('says a tenant that does not exist is unknown, exit code 1, for every command', async () => {
    for (const args of [
      ['token', 'list', '--tenant', 'nope'],
      ['events', '--tenant', 'nope'],
    ])
      expect(await cli(...args)).toMatchObject({
        code: 1,
        out: '',
        err: 'Unknown tenant "nope".\n',
      });
  });

  it('names a wrongly configured variable', () => {
    // The binary: the variables of its process.
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), 'migrate'],
      {
        env: { PATH: process.env.PATH, PORT: 'eighty' },
        encoding: 'utf8',
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'Invalid configuration:\n  PORT="eighty": must be a whole number from 1 to 65535\n',
    );
  });
});

/** What a command showed: its exit code, standard output, the database it named first on standard error, the rest of it. */
function seen(code: number | null, out: string, stderr: string) {
  const [, database, err] = /^(?:Database: (.*)\n)?([\s\S]*)$/.exec(stderr)!;
  return { code, out, err, database };
}

/** Sends what is written to `stream` to `to` instead, until the function it returns is called. */
function divert(
  stream: NodeJS.WriteStream,
  to: (text: string) => void,
): () => void {
  const spy = jest
    .spyOn(stream, 'write')
    .mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      to(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
      const done = rest.find((arg) => typeof arg === 'function');
      if (done) process.nextTick(done as () => void);
      return true;
    });
  return () => spy.mockRestore();
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
