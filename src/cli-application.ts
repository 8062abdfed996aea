import { ConsoleLogger, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CliModule } from './cli.module';
import {
  CommandContext,
  Refused,
  UsageError,
} from './common/command-line/command';
import type { CommandToRun } from './common/command-line/command-usage';
import { DomainError } from './common/errors';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { Database } from './database/database';
import { explainStartupError } from './ops/startup';
import { TenantFileError } from './tenants/tenant-file.validator';
import { TenantsService } from './tenants/tenants.service';

// What a command that runs needs besides its table: the configuration, the
// application on its database, and the words for what went wrong. cli.ts
// loads this module only then.

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

/** Runs a command on the configured database (or io.app); its exit code. */
export async function runCommand(
  line: CommandToRun,
  io: CliIo,
): Promise<number> {
  let config: AppConfig | undefined;
  try {
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
  { command, given, input }: CommandToRun,
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
    // Failures to start reach runCommand's catch, which says them in one line.
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
export function explain(error: unknown, config?: AppConfig): string {
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
