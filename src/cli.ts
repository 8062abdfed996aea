import './ops/supported-node';
import { ConsoleLogger, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ADMIN_COMMANDS } from './admin/admin.commands';
import { PROVIDER_COMMANDS } from './admin/account-providers.commands';
import { SECRET_KEY_COMMANDS } from './admin/secret-keys.commands';
import { ISSUER_COMMANDS } from './admin/token-issuers.commands';
import { TOKEN_COMMANDS } from './auth/tokens.commands';
import { CliModule } from './cli.module';
import {
  Command,
  CommandContext,
  Given,
  Refused,
  UsageError,
} from './common/command-line/command';
import { readCommandLine } from './common/command-line/command-usage';
import { DomainError } from './common/errors';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { Database } from './database/database';
import { EVENT_COMMANDS } from './events/events.commands';
import { IDENTITY_COMMANDS } from './identity/identity.commands';
import { MIGRATE_COMMANDS } from './ops/migrate.commands';
import { explainStartupError } from './ops/startup';
import { TenantFileError } from './tenants/tenant-file.validator';
import { TENANT_FILE_COMMANDS } from './tenants/tenants.commands';
import { TenantsService } from './tenants/tenants.service';
import { WEBHOOK_COMMANDS } from './webhooks/webhooks.commands';

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

/** Where a command line reads and writes, and what it is configured by. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin?: AsyncIterable<Buffer | string>;
  /** The variables the configuration is read from (process.env without them). */
  env?: NodeJS.ProcessEnv;
  /** An application open already, which the commands use and leave open. */
  app?: INestApplicationContext;
}

/**
 * Runs a command line; its exit code: 0 done, 1 not done (the reason on
 * standard error), 2 wrong usage. Help and wrong usage are answered before
 * the configuration is read or any database opened.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  let config: AppConfig | undefined;
  try {
    const line = readCommandLine(COMMANDS, argv);
    if ('help' in line) {
      io.stdout.write(line.help);
      return 0;
    }
    if (io.app) return await execute(line, io.app, io);
    config = loadConfig(io.env ?? process.env);
    if (line.command.migrates) config.migrateOnStart = true;
    const app = await openApplication(config);
    try {
      return await execute(line, app, io);
    } finally {
      await app.close();
    }
  } catch (error) {
    io.stderr.write(`${explain(error, config)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

/** Names the database, checks --tenant, runs the command. */
async function execute(
  { command, given, input }: { command: Command; given: Given; input: unknown },
  app: INestApplicationContext,
  io: CliIo,
): Promise<number> {
  // Which database every command works on, so that a token made on the
  // embedded database is not mistaken for one of the service's PostgreSQL.
  io.stderr.write(`Database: ${app.get(Database).description}\n`);
  if ('tenant' in command.options) {
    const tenantId = given.need('tenant');
    if (!(await app.get(TenantsService).hasTenant(tenantId)))
      throw new Refused(`Unknown tenant "${tenantId}".`);
  }
  const context: CommandContext = {
    app,
    write: (text) => void io.stdout.write(text),
    note: (line) => void io.stderr.write(`${line}\n`),
    stdin: io.stdin ?? process.stdin,
  };
  const code = await command.handler(context, input);
  return typeof code === 'number' ? code : 0;
}

/** The command line's application (CliModule) on the configured database. */
export async function openApplication(
  config: AppConfig,
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(
    CliModule.forRoot(config),
    // Failures to start reach runCli's catch, which says them in one line.
    { bufferLogs: true, autoFlushLogs: false, abortOnError: false },
  );
  app.useLogger(
    new ConsoleLogger({
      logLevels: ['fatal', 'error', 'warn'],
      colors: Boolean(process.stderr.isTTY),
    }),
  );
  app.flushLogs();
  return app;
}

/** What went wrong: the error's own message when the command line expects it, else one line. */
function explain(error: unknown, config: AppConfig | undefined): string {
  const known =
    error instanceof UsageError ||
    error instanceof Refused ||
    error instanceof ConfigError ||
    error instanceof TenantFileError ||
    error instanceof DomainError;
  if (known) return error.message;
  // The URL commands connect through: the primary itself when DATABASE_DIRECT_URL names it.
  const database = config?.databaseDirectUrl
    ? {
        databaseUrl: config.databaseDirectUrl,
        databaseVariable: 'DATABASE_DIRECT_URL',
      }
    : { databaseUrl: config?.databaseUrl };
  return explainStartupError(error, database);
}

if (require.main === module)
  void runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
  }).then((code) => {
    if (code) process.exit(code);
  });
