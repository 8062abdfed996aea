import { plainToInstance, Transform } from 'class-transformer';
import { applyDecorators } from '@nestjs/common';
import {
  connectionStringProblem,
  splitConnectionStrings,
} from '../database/connection-string';
import { KeyRingError, parseKeys, type SecretKey } from './secret-keys';
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
  ValidateBy,
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

/** The largest budget and window; the OpenAPI document bounds RateLimit-* by them. */
export const MAX_RATE_LIMIT = 1_000_000;
export const MAX_RATE_LIMIT_WINDOW_SECONDS = 86_400;

/** The service's configuration, read and validated once at start. */
export class AppConfig {
  port: number;
  /**
   * The address to listen on: HOST; unset, loopback only on the embedded
   * database (the demo's published tokens never reach a network), every
   * address of the host on PostgreSQL.
   */
  host?: string;
  /** PostgreSQL connection string; when absent the embedded database is used. */
  databaseUrl?: string;
  /**
   * The primary itself, when DATABASE_URL is a pooler: migrations and the
   * command line (imports, merges, the change log) connect here.
   */
  databaseDirectUrl?: string;
  /** Streaming replicas that GET requests read from while they keep up. */
  databaseReplicaUrls: string[];
  /** The most a replica may lag behind the primary and still be read. */
  databaseReplicaMaxLagMs: number;
  /** Data directory of the embedded database (`memory://` keeps it in memory). */
  dataDir: string;
  databasePoolSize: number;
  /** Prepared (named) statements; off behind a pooler that cannot keep them. */
  databasePreparedStatements: boolean;
  /** Longest wait for a new database connection. */
  databaseConnectTimeoutMs: number;
  /** Longest wait for one database query; past it the request fails (503). */
  databaseQueryTimeoutMs: number;
  migrateOnStart: boolean;
  seedDemo: boolean;
  logLevel: LogLevel;
  /** Redis for the shared rate-limit budget; each instance counts alone without it. */
  redisUrl?: string;
  /** Requests per token (or per client address without one) in each window. */
  rateLimit: number;
  /** Failed authentications per client address in each window. */
  rateLimitFailedAuthentications: number;
  rateLimitWindowSeconds: number;
  /** Longest wait for Redis; past it the instance counts in memory for a while. */
  redisTimeoutMs: number;
  /** Express `trust proxy`: false, true, a hop count, or addresses/subnets. */
  trustProxy: boolean | number | string;
  /** Origins allowed by CORS; empty turns CORS off. */
  corsOrigins: string[];
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long an unknown JWT key id waits before the JWKS is fetched again. */
  jwksCooldownMs: number;
  /** The most bytes the issuers' key sets (JWKS) cached in this process may take. */
  jwksCacheBytes: number;
  /**
   * The service's address as browsers reach it (PUBLIC_URL), without a
   * trailing slash: link URLs and the callback providers send browsers to.
   */
  publicUrl: string;
  /** How long a link ticket's time window is: a ticket lives one to two of them. */
  linkTicketSeconds: number;
  /** How long a browser may take at the provider before the callback. */
  linkAttemptSeconds: number;
  /** Longest wait for a JWKS or discovery document. */
  jwksTimeoutMs: number;
  /**
   * Tenants whose issuers, link providers and webhooks may be on loopback
   * and private networks (every other tenant's requests reach public
   * addresses only); `webhooks.privateNetworkTenants` is this list.
   */
  egressPrivateNetworkTenants: string[];
  /** Webhook delivery (docs/operations.md, delivering webhooks). */
  webhooks: WebhookConfig;
  /** The operator's keys that seal the client secrets tenants store. */
  secretKeys: SecretKeySource;
  /** `/metrics` (docs/operations.md, metrics). */
  metrics: MetricsConfig;
  /** What one tenant's administration may make and keep (docs/api.md, limits). */
  quotas: TenantQuotas;
}

export interface TenantQuotas {
  /** Account providers a tenant may have. */
  providers: number;
  /** Live tokens (neither revoked nor expired) a tenant may have for the admin API to make another. */
  tokens: number;
  /** How long audit log entries are kept. */
  auditLogDays: number;
  /** The least time between two replays of one webhook subscription; 0 for none. */
  webhookReplaySeconds: number;
}

export interface MetricsConfig {
  /** The bearer secret a scrape must send; unset keeps `/metrics` public. */
  token?: string;
  /** Whether the webhook gauges carry a `tenant` label (one series set per tenant). */
  tenantLabels: boolean;
  /** How long one reading of the webhook figures serves the scrapes after it. */
  cacheMs: number;
}

/**
 * Where the keys sealing tenants' client secrets come from: SECRET_KEYS,
 * SECRET_KEYS_FILE, or, on the embedded database, a file the service makes
 * and keeps beside its data directory (a key for the process when the data
 * is in memory); on PostgreSQL without either, no secret can be stored.
 */
export type SecretKeySource =
  | { kind: 'given'; keys: SecretKey[] }
  | { kind: 'file'; path: string; own: boolean }
  | { kind: 'memory' }
  | { kind: 'none' };

export interface WebhookConfig {
  /** Whether this instance delivers webhooks (every instance may). */
  deliver: boolean;
  /** How often an idle instance looks for events to deliver. */
  pollMs: number;
  /** Longest wait for a receiver's answer, per attempt. */
  timeoutMs: number;
  /** How long an instance holds a subscription it delivers; renewed before each attempt. */
  leaseMs: number;
  /** The first retry's delay, doubled by each failure after it, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long failures may go on before a subscription is marked failing. */
  retrySeconds: number;
  /** Subscriptions one instance delivers at once. */
  concurrency: number;
  /** Subscriptions of one tenant one instance delivers at once. */
  tenantConcurrency: number;
  /** How long one claim starts attempts before the subscription goes back to the queue. */
  claimMs: number;
  /** How long delivery attempts are kept in the log. */
  logDays: number;
  /** Tenants whose subscriptions may reach private network addresses. */
  privateNetworkTenants: string[];
}

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** An optional whole number in [min, max]. */
const WholeNumber = (min: number, max: number) => {
  const message = { message: `must be a whole number from ${min} to ${max}` };
  return applyDecorators(
    IsOptional(),
    Transform(toInt),
    IsInt(message),
    Min(min, message),
    Max(max, message),
  );
};
const Flag = () =>
  applyDecorators(
    IsOptional(),
    Transform(toBool),
    IsBoolean({ message: 'must be true or false' }),
  );

/** A connection string, or with `list` several separated by commas. */
const ConnectionString = (list = false) =>
  applyDecorators(
    IsOptional(),
    ValidateBy({
      name: 'connectionString',
      validator: {
        validate: (value) =>
          typeof value === 'string' &&
          (list ? splitConnectionStrings(value) : [value]).every(
            (url) => !connectionStringProblem(url),
          ),
        defaultMessage: (args) => {
          const value = typeof args?.value === 'string' ? args.value : '';
          const urls = list ? splitConnectionStrings(value) : [value];
          const problem = urls.map(connectionStringProblem).find(Boolean);
          return list && problem?.startsWith('must be')
            ? 'must be postgresql:// connection strings separated by commas (or one string of libpq key=value pairs)'
            : (problem ??
                'must be a postgresql:// connection string (or libpq key=value pairs)');
        },
      },
    }),
  );

/** The environment variables, named exactly as an operator sets them. */
class Environment {
  @WholeNumber(1, 65535) PORT: number = 3000;

  @IsOptional()
  @Matches(/^[0-9A-Za-z.:-]{1,253}$/, {
    message: 'must be an address or a host name, e.g. 127.0.0.1',
  })
  HOST?: string;

  @ConnectionString() DATABASE_URL?: string;
  @ConnectionString() DATABASE_DIRECT_URL?: string;
  @ConnectionString(true) DATABASE_REPLICA_URL?: string;

  @WholeNumber(10, 600_000) DATABASE_REPLICA_MAX_LAG_MS: number = 1_000;

  @IsOptional() @IsString() @MinLength(1) DATA_DIR: string = '.data/pglite';
  @WholeNumber(1, 1000) DATABASE_POOL_SIZE: number = 10;
  @Flag() DATABASE_PREPARED_STATEMENTS: boolean = true;
  @WholeNumber(100, 600_000) DATABASE_CONNECT_TIMEOUT_MS: number = 5_000;
  @WholeNumber(100, 3_600_000) DATABASE_QUERY_TIMEOUT_MS: number = 30_000;
  @Flag() MIGRATE_ON_START: boolean = true;
  /** Defaults to on for the embedded database only (see loadConfig). */
  @Flag() SEED_DEMO?: boolean;

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'log';

  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, {
    message: 'must be a redis:// or rediss:// URL',
  })
  REDIS_URL?: string;

  @WholeNumber(1, MAX_RATE_LIMIT) RATE_LIMIT: number = 1200;
  @WholeNumber(1, MAX_RATE_LIMIT_WINDOW_SECONDS)
  RATE_LIMIT_WINDOW_SECONDS: number = 60;
  @WholeNumber(1, MAX_RATE_LIMIT) RATE_LIMIT_FAILED_AUTH: number = 120;
  @WholeNumber(10, 10_000) REDIS_TIMEOUT_MS: number = 200;

  @IsOptional()
  @Matches(/^(true|false|\d{1,2}|[0-9A-Za-z.:/_,\s-]+)$/, {
    message:
      'must be true, false, a hop count, or addresses/subnets separated by commas',
  })
  TRUST_PROXY: string = 'false';

  @IsOptional()
  @Matches(/^(https?:\/\/[^\s,]+)(\s*,\s*https?:\/\/[^\s,]+)*$/, {
    message: 'must be http(s) origins separated by commas',
  })
  CORS_ORIGINS?: string;

  @WholeNumber(1000, 3_600_000) HTTP_REQUEST_TIMEOUT_MS: number = 30_000;
  @WholeNumber(1000, 600_000) HTTP_HEADERS_TIMEOUT_MS: number = 10_000;
  // Above the 60 s idle timeout of common gateways, which must close idle
  // connections first (docs/operations.md, Behind a gateway).
  @WholeNumber(1000, 600_000) HTTP_KEEP_ALIVE_TIMEOUT_MS: number = 65_000;
  @WholeNumber(0, 3_600_000) JWKS_COOLDOWN_MS: number = 30_000;
  @WholeNumber(100, 60_000) JWKS_TIMEOUT_MS: number = 3_000;
  // Three times the largest JWKS (1 MB) at least: one key set always fits.
  @WholeNumber(4, 4096) JWKS_CACHE_MB: number = 32;

  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*[^\s?#/])?$/, {
    message:
      'must be the http(s) address browsers reach the service at, without a query or a trailing slash',
  })
  PUBLIC_URL?: string;
  @WholeNumber(10, 3600) LINK_TICKET_SECONDS: number = 300;
  @WholeNumber(10, 3600) LINK_ATTEMPT_SECONDS: number = 600;

  @Flag() WEBHOOK_DELIVERY: boolean = true;
  @WholeNumber(10, 60_000) WEBHOOK_POLL_MS: number = 500;
  @WholeNumber(100, 60_000) WEBHOOK_TIMEOUT_MS: number = 10_000;
  @WholeNumber(1, 3600) WEBHOOK_LEASE_SECONDS: number = 60;
  @WholeNumber(10, 3_600_000) WEBHOOK_RETRY_BASE_MS: number = 5_000;
  @WholeNumber(10, 86_400_000) WEBHOOK_RETRY_MAX_MS: number = 3_600_000;
  @WholeNumber(1, 30 * 86400) WEBHOOK_RETRY_SECONDS: number = 3 * 86400;
  @WholeNumber(1, 256) WEBHOOK_CONCURRENCY: number = 16;
  @WholeNumber(1, 256) WEBHOOK_TENANT_CONCURRENCY: number = 4;
  @WholeNumber(100, 3_600_000) WEBHOOK_CLAIM_MS: number = 30_000;
  @WholeNumber(1, 365) WEBHOOK_LOG_DAYS: number = 7;

  @IsOptional()
  @Matches(/^\s*[a-z0-9][a-z0-9-]*(\s*,\s*[a-z0-9][a-z0-9-]*)*\s*$/, {
    message: 'must be tenant ids separated by commas',
  })
  WEBHOOK_PRIVATE_NETWORK_TENANTS?: string;

  @IsOptional()
  @Matches(/^\s*[a-z0-9][a-z0-9-]*(\s*,\s*[a-z0-9][a-z0-9-]*)*\s*$/, {
    message: 'must be tenant ids separated by commas',
  })
  EGRESS_PRIVATE_NETWORK_TENANTS?: string;

  @IsOptional() @IsString() SECRET_KEYS?: string;
  @IsOptional() @IsString() @MinLength(1) SECRET_KEYS_FILE?: string;

  @IsOptional()
  @Matches(/^[\x21-\x7E]{16,512}$/, {
    message: 'must be 16 to 512 printable characters without spaces',
  })
  METRICS_TOKEN?: string;
  @Flag() METRICS_TENANT_LABELS: boolean = false;
  @WholeNumber(0, 3600) METRICS_CACHE_SECONDS: number = 15;

  @WholeNumber(1, 10_000) TENANT_MAX_PROVIDERS: number = 50;
  @WholeNumber(1, 1_000_000) TENANT_MAX_TOKENS: number = 1000;
  @WholeNumber(1, 36_500) AUDIT_LOG_DAYS: number = 90;
  @WholeNumber(0, 86_400) WEBHOOK_REPLAY_SECONDS: number = 60;
}

export class ConfigError extends Error {}

/**
 * A connection string as it may be shown: the password of its user part and
 * any `password=` parameter replaced, whether or not the rest parses (a
 * mistyped URL is echoed in the error that refuses it).
 */
export function redactCredentials(value: string): string {
  const [address, ...rest] = value.split(/(?=[?#])/);
  const start = address.includes('//') ? address.indexOf('//') + 2 : 0;
  const at = address.lastIndexOf('@');
  const colon = address.indexOf(':', start);
  const hidden =
    at > start && colon >= 0 && colon < at
      ? `${address.slice(0, colon)}:***${address.slice(at)}`
      : address;
  return [hidden, ...rest]
    .join('')
    .replace(/([?&]password=)[^&#]*/gi, '$1***')
    .replace(
      // libpq's key=value form: password=secret or password='a secret'.
      /(^|\s)(password\s*=\s*)('(?:[^'\\]|\\.)*'?|\S*)/gi,
      '$1$2***',
    );
}

/** A variable's value as an error message may echo it. */
const shown = (name: string, value: string | undefined) =>
  name === 'SECRET_KEYS' || name === 'METRICS_TOKEN'
    ? '(not shown)'
    : JSON.stringify(
        value !== undefined && name.endsWith('_URL')
          ? redactCredentials(value)
          : value,
      );

function trustProxyValue(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * Reads the configuration from environment variables. A wrong value throws
 * a ConfigError naming the variable; empty strings count as unset.
 */
export function loadConfig(env: NodeJS.ProcessEnv): AppConfig {
  const parsed = validEnvironment(env);
  checkCombinations(parsed);
  const secretKeys = secretKeySource(parsed);
  const seedDemo = parsed.SEED_DEMO ?? parsed.DATABASE_URL === undefined;
  const egressPrivateNetworkTenants = privateNetworkTenantsOf(parsed, seedDemo);
  return {
    port: parsed.PORT,
    host: parsed.HOST ?? (parsed.DATABASE_URL ? undefined : '127.0.0.1'),
    databaseUrl: parsed.DATABASE_URL,
    databaseDirectUrl: parsed.DATABASE_DIRECT_URL,
    databaseReplicaUrls: splitConnectionStrings(
      parsed.DATABASE_REPLICA_URL ?? '',
    ).filter(Boolean),
    databaseReplicaMaxLagMs: parsed.DATABASE_REPLICA_MAX_LAG_MS,
    dataDir: parsed.DATA_DIR,
    databasePoolSize: parsed.DATABASE_POOL_SIZE,
    databasePreparedStatements: parsed.DATABASE_PREPARED_STATEMENTS,
    databaseConnectTimeoutMs: parsed.DATABASE_CONNECT_TIMEOUT_MS,
    databaseQueryTimeoutMs: parsed.DATABASE_QUERY_TIMEOUT_MS,
    migrateOnStart: parsed.MIGRATE_ON_START,
    // A production database never gets the demo tenant and its published
    // tokens unless asked to.
    seedDemo,
    egressPrivateNetworkTenants,
    logLevel: parsed.LOG_LEVEL,
    redisUrl: parsed.REDIS_URL,
    rateLimit: parsed.RATE_LIMIT,
    rateLimitFailedAuthentications: parsed.RATE_LIMIT_FAILED_AUTH,
    rateLimitWindowSeconds: parsed.RATE_LIMIT_WINDOW_SECONDS,
    redisTimeoutMs: parsed.REDIS_TIMEOUT_MS,
    trustProxy: trustProxyValue(parsed.TRUST_PROXY),
    corsOrigins: (parsed.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    requestTimeoutMs: parsed.HTTP_REQUEST_TIMEOUT_MS,
    headersTimeoutMs: parsed.HTTP_HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: parsed.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    jwksCooldownMs: parsed.JWKS_COOLDOWN_MS,
    jwksTimeoutMs: parsed.JWKS_TIMEOUT_MS,
    jwksCacheBytes: parsed.JWKS_CACHE_MB * 1024 * 1024,
    publicUrl: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
    linkTicketSeconds: parsed.LINK_TICKET_SECONDS,
    linkAttemptSeconds: parsed.LINK_ATTEMPT_SECONDS,
    webhooks: webhookConfig(parsed, egressPrivateNetworkTenants),
    secretKeys,
    metrics: {
      token: parsed.METRICS_TOKEN,
      tenantLabels: parsed.METRICS_TENANT_LABELS,
      cacheMs: parsed.METRICS_CACHE_SECONDS * 1000,
    },
    quotas: {
      providers: parsed.TENANT_MAX_PROVIDERS,
      tokens: parsed.TENANT_MAX_TOKENS,
      auditLogDays: parsed.AUDIT_LOG_DAYS,
      webhookReplaySeconds: parsed.WEBHOOK_REPLAY_SECONDS,
    },
  };
}

/** The variables that are set, each valid on its own, or a ConfigError naming each that is not. */
function validEnvironment(env: NodeJS.ProcessEnv): Environment {
  const set = Object.fromEntries(
    Object.entries(env).filter(
      ([, value]) => value !== undefined && value !== '',
    ),
  );
  const parsed = plainToInstance(Environment, set);
  const errors = validateSync(parsed, {
    whitelist: true,
    stopAtFirstError: true,
  });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) =>
        `${e.property}=${shown(e.property, env[e.property])}: ${Object.values(
          e.constraints ?? {},
        )
          .map((m) => m.replace(`${e.property} `, ''))
          .join('; ')}`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return parsed;
}

/** Refuses values that are valid each on its own and not together. */
function checkCombinations(parsed: Environment): void {
  // An attempt must end well within the lease it was started under, or a
  // second instance could take the subscription over while it runs.
  if (parsed.WEBHOOK_LEASE_SECONDS * 1000 < 2 * parsed.WEBHOOK_TIMEOUT_MS)
    throw new ConfigError(
      `Invalid configuration:\n  WEBHOOK_LEASE_SECONDS=${parsed.WEBHOOK_LEASE_SECONDS}: must be at least twice WEBHOOK_TIMEOUT_MS (${parsed.WEBHOOK_TIMEOUT_MS} ms)`,
    );
  for (const name of ['DATABASE_DIRECT_URL', 'DATABASE_REPLICA_URL'] as const)
    if (parsed[name] && !parsed.DATABASE_URL)
      throw new ConfigError(
        `Invalid configuration:\n  ${name}=${shown(name, parsed[name])}: needs DATABASE_URL; the embedded database has neither a pooler nor replicas`,
      );
}

/** How webhooks are delivered; `privateNetworkTenants` is the egress list every outgoing request follows. */
function webhookConfig(
  parsed: Environment,
  privateNetworkTenants: string[],
): WebhookConfig {
  return {
    deliver: parsed.WEBHOOK_DELIVERY,
    pollMs: parsed.WEBHOOK_POLL_MS,
    timeoutMs: parsed.WEBHOOK_TIMEOUT_MS,
    leaseMs: parsed.WEBHOOK_LEASE_SECONDS * 1000,
    retryBaseMs: parsed.WEBHOOK_RETRY_BASE_MS,
    retryMaxMs: parsed.WEBHOOK_RETRY_MAX_MS,
    retrySeconds: parsed.WEBHOOK_RETRY_SECONDS,
    concurrency: parsed.WEBHOOK_CONCURRENCY,
    tenantConcurrency: parsed.WEBHOOK_TENANT_CONCURRENCY,
    claimMs: parsed.WEBHOOK_CLAIM_MS,
    logDays: parsed.WEBHOOK_LOG_DAYS,
    privateNetworkTenants,
  };
}

function secretKeySource(parsed: Environment): SecretKeySource {
  const refuse = (name: string, message: string) =>
    new ConfigError(
      `Invalid configuration:\n  ${name}=${shown(name, parsed[name as 'SECRET_KEYS'])}: ${message}`,
    );
  if (parsed.SECRET_KEYS !== undefined && parsed.SECRET_KEYS_FILE !== undefined)
    throw refuse(
      'SECRET_KEYS_FILE',
      'give SECRET_KEYS or SECRET_KEYS_FILE, not both',
    );
  if (parsed.SECRET_KEYS !== undefined) {
    try {
      return {
        kind: 'given',
        keys: parseKeys(parsed.SECRET_KEYS, 'its value'),
      };
    } catch (error) {
      if (!(error instanceof KeyRingError)) throw error;
      throw refuse('SECRET_KEYS', error.message);
    }
  }
  if (parsed.SECRET_KEYS_FILE !== undefined)
    return { kind: 'file', path: parsed.SECRET_KEYS_FILE, own: false };
  if (parsed.DATABASE_URL !== undefined) return { kind: 'none' };
  return parsed.DATA_DIR.startsWith('memory://')
    ? { kind: 'memory' }
    : {
        kind: 'file',
        // Beside the data directory, never in it (a DATA_DIR ending in a
        // slash would put it inside, and into the directory's backups).
        path: `${parsed.DATA_DIR.replace(/\/+$/, '')}.secret-keys`,
        own: true,
      };
}

/** The demo tenant's id (prisma/demo-tenant.json). */
const DEMO_TENANT = 'demo';

/**
 * EGRESS_PRIVATE_NETWORK_TENANTS joined with its former name,
 * WEBHOOK_PRIVATE_NETWORK_TENANTS; when neither is set and the demo is
 * seeded on the embedded database (a development machine, listening on
 * loopback), the demo tenant, whose README examples post to a receiver on
 * localhost.
 */
function privateNetworkTenantsOf(
  parsed: Environment,
  seedDemo: boolean,
): string[] {
  const named = [
    parsed.EGRESS_PRIVATE_NETWORK_TENANTS,
    parsed.WEBHOOK_PRIVATE_NETWORK_TENANTS,
  ].filter((list): list is string => list !== undefined);
  if (!named.length)
    return seedDemo && parsed.DATABASE_URL === undefined ? [DEMO_TENANT] : [];
  const ids = named.flatMap((list) => list.split(',').map((t) => t.trim()));
  return [...new Set(ids.filter(Boolean))];
}
