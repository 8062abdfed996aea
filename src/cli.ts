import './ops/supported-node';
import { ADMIN_COMMANDS } from './admin/admin.commands';
import { PROVIDER_COMMANDS } from './admin/account-providers.commands';
import { SECRET_KEY_COMMANDS } from './admin/secret-keys.commands';
import { ISSUER_COMMANDS } from './admin/token-issuers.commands';
import { TOKEN_COMMANDS } from './auth/tokens.commands';
import type { CliIo } from './cli-application';
import { Command, UsageError } from './common/command-line/command';
import { readCommandLine } from './common/command-line/command-usage';
import { EVENT_COMMANDS } from './events/events.commands';
import { IDENTITY_COMMANDS } from './identity/identity.commands';
import { MIGRATE_COMMANDS } from './ops/migrate.commands';
import { TENANT_FILE_COMMANDS } from './tenants/tenants.commands';
import { WEBHOOK_COMMANDS } from './webhooks/webhooks.commands';

// The commands' tables import no service, Nest nor database driver (their
// handlers require what they use as they run): help and wrong usage are
// answered from the tables alone, in a tenth of the time that loading the
// application takes. cli-application.ts, required only for a command that
// runs, loads it.
type CliApplication = typeof import('./cli-application');
const application = (): CliApplication => require('./cli-application');

/** Every command, each from its feature, in the order the usage lists them. */
export const COMMANDS: readonly Command[] = [
  ...MIGRATE_COMMANDS,
  ...TENANT_FILE_COMMANDS,
  ...TOKEN_COMMANDS,
  ...ADMIN_COMMANDS,
  ...PROVIDER_COMMANDS,
  ...ISSUER_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...IDENTITY_COMMANDS,
  ...EVENT_COMMANDS,
  ...SECRET_KEY_COMMANDS,
];

export type { CliIo } from './cli-application';

/**
 * Runs a command line; its exit code: 0 done, 1 not done (the reason on
 * standard error), 2 wrong usage. Help and wrong usage are answered before
 * the configuration is read, any database opened or the application loaded.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  try {
    const line = readCommandLine(COMMANDS, argv);
    if ('help' in line) {
      io.stdout.write(line.help);
      return 0;
    }
    return await application().runCommand(line, io);
  } catch (error) {
    const usage = error instanceof UsageError;
    io.stderr.write(
      `${usage ? error.message : application().explain(error)}\n`,
    );
    return usage ? 2 : 1;
  }
}

/** The command line's application (CliModule) on the configured database. */
export const openApplication: CliApplication['openApplication'] = (config) =>
  application().openApplication(config);

if (require.main === module)
  void runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
  }).then((code) => {
    if (code) process.exit(code);
  });
