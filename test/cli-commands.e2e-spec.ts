import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { COMMANDS, openApplication, runCli } from '../src/cli';
import { createTestDatabase, TestDatabase } from './support/test-database';

// Every command of the command line, run in-process on a database of its
// own: the rules the command tables share, held for each command (a new
// command is held to them by being in a table).
describe('every command of the command line', () => {
  let db: TestDatabase;
  // One application for every command: opening the embedded database takes seconds.
  let app: INestApplicationContext;
  beforeAll(async () => {
    db = await createTestDatabase();
    app = await openApplication(db.config);
  });
  afterAll(async () => {
    await app?.close();
    await db.drop();
  });

  async function cli(...argv: string[]) {
    let [out, err] = ['', ''];
    const code = await runCli(argv, {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      app,
    });
    // The first line on stderr names the database (test/cli.e2e-spec.ts checks it).
    return { code, out, err: err.replace(/^Database: .*\n/, '') };
  }

  /** The command's example on the tenant `tenantId`. */
  const onTenant = (example: readonly string[], tenantId: string) =>
    example.map((word, i) => (example[i - 1] === '--tenant' ? tenantId : word));

  const withTenant = COMMANDS.filter((command) => 'tenant' in command.options);

  it('has the commands that take --tenant', () => {
    expect(withTenant.map((command) => command.name)).toContain('token list');
    expect(withTenant.map((command) => command.name)).toContain('events');
    expect(withTenant.length).toBeGreaterThan(25);
  });

  it.each(withTenant.map((command) => [command.name, command] as const))(
    '%s says a tenant that does not exist is unknown: exit code 1',
    async (name, command) => {
      expect(
        await cli(...name.split(' '), ...onTenant(command.example, 'nope')),
      ).toStrictEqual({
        code: 1,
        out: '',
        err: 'Unknown tenant "nope".\n',
      });
    },
  );

  it('export says so too, of the tenant it names', async () => {
    expect(await cli('export', 'nope')).toStrictEqual({
      code: 1,
      out: '',
      err: 'Unknown tenant "nope".\n',
    });
  });

  it('lists nothing, exit code 0, for a tenant that has nothing to list', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'identity-cli-')), 't.json');
    writeFileSync(file, JSON.stringify({ tenant: { id: 'empty', name: 'E' } }));
    expect(await cli('import', file)).toMatchObject({ code: 0, err: '' });
    for (const argv of [
      ['token', 'list', '--tenant', 'empty'],
      ['events', '--tenant', 'empty'],
      ['webhook', 'list', '--tenant', 'empty'],
    ])
      expect(await cli(...argv)).toStrictEqual({ code: 0, out: '', err: '' });
  });
});
