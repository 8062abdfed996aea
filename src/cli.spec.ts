import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { COMMANDS, runCli } from './cli';
import type { Command } from './common/command-line/command';
import {
  commandHelp,
  commandList,
  groupHelp,
} from './common/command-line/command-help';

// Help and usage need no database: the commands run here against a
// PostgreSQL URL on a closed loopback port, where opening one fails.
let port: number;
beforeAll(async () => {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((listening) => server.once('listening', listening));
  port = (server.address() as { port: number }).port;
  await new Promise((closed) => server.close(closed));
});

async function cli(...argv: string[]) {
  let [out, err] = ['', ''];
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    env: { DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/closed` },
  });
  return { code, out, err };
}

const words = (command: Command) => command.name.split(' ');
const byName = COMMANDS.map((command) => [command.name, command] as const);

/** A usage mistake: exit code 2, the message and the command's help on stderr, nothing else. */
const mistake = (message: string, help: string) => ({
  code: 2,
  out: '',
  err: `${message}\nHelp: npm run cli -- ${help}\n`,
});

/** The example's words, read as the command reads them. */
const exampleTokens = (command: Command) =>
  parseArgs({
    args: [...command.example],
    options: Object.fromEntries(
      Object.entries(command.options).map(([name, spec]) => [
        name,
        { type: spec.type },
      ]),
    ),
    allowPositionals: true,
    strict: false,
    tokens: true,
  }).tokens;

/** The command's example without `option` (and its value). */
function without(command: Command, option: string): string[] {
  const gone = exampleTokens(command).flatMap((t) =>
    t.kind !== 'option' || t.name !== option
      ? []
      : t.value !== undefined && !t.inlineValue
        ? [t.index, t.index + 1]
        : [t.index],
  );
  return command.example.filter((_, i) => !gone.includes(i));
}

/** The command's example without its `n`th argument. */
function withoutArgument(command: Command, n: number): string[] {
  const at = exampleTokens(command).filter((t) => t.kind === 'positional')[n]
    ?.index;
  return command.example.filter((_, i) => i !== at);
}

describe('the command line', () => {
  it.each([['help'], ['--help'], ['-h']])(
    'prints the usage of every command on standard output for %s',
    async (...argv) => {
      const result = await cli(...argv);
      expect(result).toStrictEqual({
        code: 0,
        out: commandList(COMMANDS),
        err: '',
      });
      for (const command of COMMANDS)
        expect(result.out).toContain(`\n  ${command.name}`);
    },
  );

  it('prints the usage on standard error, exit code 2, without a command', async () => {
    expect(await cli()).toStrictEqual({
      code: 2,
      out: '',
      err: `${commandList(COMMANDS)}\n`,
    });
  });

  it.each(byName)(
    'prints the help of %s on standard output, however asked',
    async (name, command) => {
      const help = commandHelp(command);
      expect(help).toMatch(new RegExp(`^Usage: npm run cli -- ${name}\\b`));
      for (const argv of [
        [...words(command), '--help'],
        [...words(command), '-h'],
        ['help', ...words(command)],
        // Help wins over the rest of the command line, right or wrong.
        [...words(command), ...command.example, '--no-such-option', '--help'],
      ])
        expect(await cli(...argv)).toStrictEqual({
          code: 0,
          out: help,
          err: '',
        });
    },
  );

  it.each(byName)(
    'names in the usage and the help of %s each of its options and arguments',
    (name, command) => {
      const named = [...command.usage.matchAll(/--([a-z-]+)/g)].map(
        ([, option]) => option,
      );
      expect([...new Set(named)].sort()).toStrictEqual(
        Object.keys(command.options).sort(),
      );
      const help = commandHelp(command);
      for (const option of Object.keys(command.options))
        expect(help).toContain(`\n  --${option}`);
      for (const arg of command.args ?? []) {
        expect(command.usage).toContain(`<${arg.name}>`);
        expect(help).toContain(`\n  <${arg.name}>  `);
      }
    },
  );

  it.each(byName)(
    'checks the whole usage of %s before it opens the database',
    async (name, command) => {
      // The example passes: only then is the database opened (and not reached).
      expect(await cli(...words(command), ...command.example)).toStrictEqual({
        code: 1,
        out: '',
        err: `Cannot reach PostgreSQL at 127.0.0.1:${port}: is it running there? Check DATABASE_URL.\n`,
      });
      const help = `${name} --help`;
      const unknown = await cli(
        ...words(command),
        ...command.example,
        '--no-such-option',
      );
      expect(unknown).toStrictEqual({
        ...mistake('', help),
        err: expect.stringMatching(
          new RegExp(
            `^Unknown option '--no-such-option'\\..*\nHelp: npm run cli -- ${name} --help\n$`,
          ),
        ),
      });
      expect(
        await cli(...words(command), ...command.example, 'extra'),
      ).toStrictEqual(mistake('Unexpected argument "extra".', help));
      for (const [option, spec] of Object.entries(command.options))
        if (spec.type === 'string' && spec.required)
          expect(
            await cli(...words(command), ...without(command, option)),
          ).toStrictEqual(mistake(`Missing --${option}.`, help));
      for (const [n, arg] of (command.args ?? []).entries())
        expect(
          await cli(...words(command), ...withoutArgument(command, n)),
        ).toStrictEqual(mistake(`Missing ${arg.help}.`, help));
    },
  );

  it.each([
    [['tokn'], 'Unknown command "tokn".', 'help'],
    [['help', 'tokn'], 'Unknown command "tokn".', 'help'],
    [['token'], '"token" takes one of: create, revoke, list.', 'token --help'],
    [['token', 'make'], 'Unknown command "token make".', 'token --help'],
    [
      ['--tenant', 'demo', 'token', 'list'],
      'Name the command first, then its options ("--tenant").',
      'help',
    ],
    [
      ['token', 'list', '--tenant'],
      "Option '--tenant <value>' argument missing",
      'token list --help',
    ],
    [
      ['token', 'create', '--tenant', 'demo'],
      'Name either --identity (an access token) or --app (an app token).',
      'token create --help',
    ],
    [
      ['token', 'create', '--tenant', 'demo', '--app', 'a', '--account', 'b'],
      '--account goes with --identity.',
      'token create --help',
    ],
    [
      ['token', 'create', '--tenant', 'demo', '--app', 'a', '--ttl', '1y'],
      '--ttl takes a number and a unit: 90s, 15m, 1h, 7d.',
      'token create --help',
    ],
    [
      ['import', 'demo.json', '--replace-tokens'],
      '--replace-tokens goes with --replace.',
      'import --help',
    ],
    [
      ['tenant', 'set', '--tenant', 'demo'],
      'Nothing to set.',
      'tenant set --help',
    ],
    [
      [
        'tenant',
        'set',
        '--tenant',
        'demo',
        '--admin-role',
        'a',
        '--no-admin-roles',
      ],
      '--admin-role and --no-admin-roles exclude each other.',
      'tenant set --help',
    ],
    [
      ['provider', 'add', '--tenant', 'demo', 'gitlab'],
      'Missing --sign-in-url.',
      'provider add --help',
    ],
    [
      [
        'provider',
        'add',
        '--tenant',
        'demo',
        'gitlab',
        '--json',
        '{"signInUrl":"https://x.example"}',
        '--client-secret-stdin',
      ],
      'A client secret goes with link settings: give them with --json.',
      'provider add --help',
    ],
    [
      [
        'provider',
        'set',
        '--tenant',
        'demo',
        'gitlab',
        '--multiple-accounts',
        '--single-account',
      ],
      '--multiple-accounts and --single-account exclude each other.',
      'provider set --help',
    ],
    [
      [
        'provider',
        'set',
        '--tenant',
        'demo',
        'gitlab',
        '--client-secret-stdin',
        '--no-client-secret',
      ],
      '--client-secret-stdin and --no-client-secret exclude each other.',
      'provider set --help',
    ],
    [
      ['issuer', 'add', '--tenant', 'demo', '--json', '[1]'],
      '--json takes a JSON object.',
      'issuer add --help',
    ],
    [
      [
        'webhook',
        'rotate-secret',
        '--tenant',
        'demo',
        'wh',
        '--overlap',
        'soon',
      ],
      '--overlap takes a number of seconds.',
      'webhook rotate-secret --help',
    ],
    [
      ['webhook', 'replay', '--tenant', 'demo', 'wh'],
      'Give either --from-event or --since.',
      'webhook replay --help',
    ],
    [
      [
        'webhook',
        'replay',
        '--tenant',
        'demo',
        'wh',
        '--from-event',
        '1',
        '--since',
        '2026-11-25T10:00:00Z',
      ],
      'Give either --from-event or --since.',
      'webhook replay --help',
    ],
    [
      ['webhook', 'replay', '--tenant', 'demo', 'wh', '--from-event', 'first'],
      '--from-event takes an event id.',
      'webhook replay --help',
    ],
    [
      ['webhook', 'replay', '--tenant', 'demo', 'wh', '--since', 'yesterday'],
      '--since takes an RFC 3339 date-time, such as 2026-11-25T10:00:00Z.',
      'webhook replay --help',
    ],
    [
      ['events', '--tenant', 'demo', '--after', 'x'],
      '--after takes an event id.',
      'events --help',
    ],
  ])(
    'refuses %j: exit code 2, said before anything opens',
    async (argv, message, help) => {
      expect(await cli(...argv)).toStrictEqual(mistake(message, help));
    },
  );

  it('says what is wrong with --json', async () => {
    expect(
      await cli('issuer', 'add', '--tenant', 'demo', '--json', '{'),
    ).toStrictEqual({
      code: 2,
      out: '',
      err: expect.stringMatching(
        /^--json is not JSON: .+\nHelp: npm run cli -- issuer add --help\n$/,
      ),
    });
  });

  it.each(['token', 'provider', 'issuer', 'webhook', 'tenant', 'secret-keys'])(
    'prints the usage of the %s commands for help and --help',
    async (group) => {
      const help = groupHelp(
        group,
        COMMANDS.filter((command) => words(command)[0] === group),
      );
      for (const argv of [
        [group, '--help'],
        ['help', group],
      ])
        expect(await cli(...argv)).toStrictEqual({
          code: 0,
          out: help,
          err: '',
        });
      expect(help.match(new RegExp(`^  ${group} `, 'gm'))).toHaveLength(
        COMMANDS.filter((command) => words(command)[0] === group).length,
      );
    },
  );
});
