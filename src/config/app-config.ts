import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

export const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'log',
  'debug',
  'verbose',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The service's configuration, read and validated once at start. */
export class AppConfig {
  port: number;
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Data directory of the embedded database (`memory://` keeps it in memory). */
  dataDir: string;
  databasePoolSize: number;
  migrateOnStart: boolean;
  seedDemo: boolean;
  logLevel: LogLevel;
}

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

const port = { message: 'must be a whole number from 1 to 65535' };
const poolSize = { message: 'must be a whole number from 1 to 1000' };

/** The environment variables, named exactly as an operator sets them. */
class Environment {
  @IsOptional()
  @Transform(toInt)
  @IsInt(port)
  @Min(1, port)
  @Max(65535, port)
  PORT: number = 3000;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, {
    message: 'must be a postgresql:// connection string',
  })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  DATA_DIR: string = '.data/pglite';

  @IsOptional()
  @Transform(toInt)
  @IsInt(poolSize)
  @Min(1, poolSize)
  @Max(1000, poolSize)
  DATABASE_POOL_SIZE: number = 10;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  MIGRATE_ON_START: boolean = true;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  SEED_DEMO: boolean = true;

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'log';
}

export class ConfigError extends Error {}

/**
 * Reads the configuration from environment variables. A wrong value throws
 * a ConfigError naming the variable; empty strings count as unset.
 */
export function loadConfig(env: NodeJS.ProcessEnv): AppConfig {
  const set = Object.fromEntries(
    Object.entries(env).filter(
      ([, value]) => value !== undefined && value !== '',
    ),
  );
  const parsed = plainToInstance(Environment, set, {
    excludeExtraneousValues: false,
  });
  const errors = validateSync(parsed, {
    whitelist: true,
    stopAtFirstError: true,
  });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) =>
        `${e.property}=${JSON.stringify(env[e.property])}: ${Object.values(
          e.constraints ?? {},
        )
          .map((m) => m.replace(`${e.property} `, ''))
          .join('; ')}`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return {
    port: parsed.PORT,
    databaseUrl: parsed.DATABASE_URL,
    dataDir: parsed.DATA_DIR,
    databasePoolSize: parsed.DATABASE_POOL_SIZE,
    migrateOnStart: parsed.MIGRATE_ON_START,
    seedDemo: parsed.SEED_DEMO,
    logLevel: parsed.LOG_LEVEL,
  };
}
