import { readFileSync, writeFileSync } from 'node:fs';
import {
  command,
  CommandContext,
  Refused,
  UsageError,
} from '../common/command-line/command';
import { count, printLine } from '../common/command-line/command-output';
import type { ImportSummary, ReplaceNotice } from './tenants.service';

/**
 * Required as a command runs: help and wrong usage load no service, nor the
 * validator's rules (src/cli.ts).
 */
const tenantsService = ({ app }: CommandContext) =>
  app.get(
    (require('./tenants.service') as typeof import('./tenants.service'))
      .TenantsService,
  );
const validator = (): typeof import('./tenant-file.validator') =>
  require('./tenant-file.validator');

/** Tenants as files: the shared import format, in and out. */
export const TENANT_FILE_COMMANDS = [
  command({
    name: 'import',
    usage: '<file> [--replace [--replace-tokens]]',
    summary: 'import a tenant file (shared import format)',
    help: 'A tenant that exists is refused unless --replace, which says on standard error what it will remove before it does. A replace keeps the tokens the file does not list unless --replace-tokens, and the webhook subscriptions (not part of the file).',
    args: [{ name: 'file', help: 'the file to import' }],
    options: {
      replace: {
        type: 'boolean',
        help: 'replace the tenant when it exists',
      },
      'replace-tokens': {
        type: 'boolean',
        help: 'with --replace: remove the tokens the file does not list, too',
      },
    },
    example: ['acme.json', '--replace'],
    check: (given) => {
      if (given.flag('replace-tokens') && !given.flag('replace'))
        throw new UsageError('--replace-tokens goes with --replace.');
      return {
        file: given.arg('file'),
        replace: given.flag('replace'),
        replaceTokens: given.flag('replace-tokens'),
      };
    },
    handler: async (context, { file, replace, replaceTokens }) => {
      const parsed = readTenantFile(file);
      const started = Date.now();
      const summary = await tenantsService(context).importTenant(parsed, {
        replace,
        replaceTokens,
        // What goes, said before it goes (on stderr: stdout stays the summary).
        beforeReplace: (notice) =>
          context.note(replaceNotice(notice, replaceTokens)),
      });
      printLine(context, imported(summary, Date.now() - started));
    },
  }),
  command({
    name: 'export',
    usage: '<tenant> [--output <file>]',
    summary: 'write a tenant in the import format (no tokens)',
    args: [{ name: 'tenant', help: 'the tenant to export' }],
    options: {
      output: {
        type: 'string',
        value: '<file>',
        help: 'the file to write (standard output without it)',
      },
    },
    example: ['acme', '--output', 'acme.json'],
    check: (given) => ({
      tenantId: given.arg('tenant'),
      output: given.string('output'),
    }),
    handler: async (context: CommandContext, { tenantId, output }) => {
      const file = await tenantsService(context).exportTenant(tenantId);
      if (!file) throw new Refused(`Unknown tenant "${tenantId}".`);
      const json = `${JSON.stringify(file, null, 2)}\n`;
      if (output === undefined) context.write(json);
      else writeFileSync(output, json);
    },
  }),
];

function readTenantFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const { TenantFileError } = validator();
    throw new TenantFileError([
      {
        field: '$',
        message: `cannot read JSON from ${file}: ${(error as Error).message}`,
      },
    ]);
  }
}

function replaceNotice(n: ReplaceNotice, replaceTokens: boolean): string {
  const removed = n.removedIdentities;
  const named = removed.length
    ? ` (${removed.slice(0, 10).join(', ')}${removed.length > 10 ? ', …' : ''})`
    : '';
  const which = replaceTokens
    ? 'every token the file does not list'
    : 'of the identities and accounts that go';
  return (
    `Replacing tenant "${n.tenantId}" removes ${count(removed.length, 'identity', 'identities')} the file lacks${named}` +
    ` and ${count(n.removedTokens, 'token', 'tokens')} (${which});` +
    ` it keeps ${count(n.keptTokens, 'token', 'tokens')} the file does not list.`
  );
}

function imported(s: ImportSummary, ms: number): string {
  const kept = s.replaced
    ? `; ${count(s.keptTokens, 'token', 'tokens')} kept, ${s.removedTokens} removed`
    : '';
  return (
    `${s.replaced ? 'Replaced' : 'Imported'} tenant "${s.tenantId}": ${count(s.identities, 'identity', 'identities')}, ` +
    `${count(s.accounts, 'account', 'accounts')}, ${count(s.friendships, 'friendship', 'friendships')}, ` +
    `${count(s.tokens, 'token', 'tokens')} in ${ms} ms${kept}.`
  );
}
