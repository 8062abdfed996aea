import { loadConfig, redactCredentials } from './app-config';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toStrictEqual({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      databaseDirectUrl: undefined,
      databaseReplicaUrls: [],
      databaseReplicaMaxLagMs: 1000,
      dataDir: '.data/pglite',
      databasePoolSize: 10,
      databasePreparedStatements: true,
      databaseConnectTimeoutMs: 5000,
      databaseQueryTimeoutMs: 30000,
      migrateOnStart: true,
      seedDemo: true,
      egressPrivateNetworkTenants: ['demo'],
      logLevel: 'log',
      redisUrl: undefined,
      rateLimit: 1200,
      rateLimitFailedAuthentications: 120,
      rateLimitWindowSeconds: 60,
      redisTimeoutMs: 200,
      trustProxy: false,
      secretKeys: { kind: 'file', path: '.data/pglite.secret-keys', own: true },
      webhooks: {
        deliver: true,
        pollMs: 500,
        timeoutMs: 10_000,
        leaseMs: 60_000,
        retryBaseMs: 5000,
        retryMaxMs: 3_600_000,
        retrySeconds: 259_200,
        concurrency: 16,
        tenantConcurrency: 4,
        claimMs: 30_000,
        logDays: 7,
        privateNetworkTenants: ['demo'],
      },
      corsOrigins: [],
      requestTimeoutMs: 30000,
      headersTimeoutMs: 10000,
      keepAliveTimeoutMs: 65000,
      jwksCooldownMs: 30000,
      jwksCacheBytes: 32 * 1024 * 1024,
      jwksTimeoutMs: 3000,
      publicUrl: 'http://localhost:3000',
      linkTicketSeconds: 300,
      linkAttemptSeconds: 600,
      metrics: { token: undefined, tenantLabels: false, cacheMs: 15_000 },
      quotas: {
        providers: 50,
        tokens: 1000,
        auditLogDays: 90,
        webhookReplaySeconds: 60,
      },
    });
  });

  it.each([
    [{}, ['demo']],
    [{ SEED_DEMO: 'false' }, []],
    [{ DATABASE_URL: 'postgresql://u@db/identity' }, []],
    // The demo on PostgreSQL is listed by the operator (docker-compose.yml).
    [{ DATABASE_URL: 'postgresql://u@db/identity', SEED_DEMO: 'true' }, []],
    [{ EGRESS_PRIVATE_NETWORK_TENANTS: 'acme' }, ['acme']],
    [{ WEBHOOK_PRIVATE_NETWORK_TENANTS: 'acme' }, ['acme']],
  ])('lets the tenants of %j reach private networks: %j', (env, tenants) => {
    const config = loadConfig(env);
    expect(config.egressPrivateNetworkTenants).toStrictEqual(tenants);
    expect(config.webhooks.privateNetworkTenants).toBe(
      config.egressPrivateNetworkTenants,
    );
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        HOST: '127.0.0.1',
        DATABASE_URL:
          'postgresql://u@db-1:5432,db-2:5432/identity?target_session_attrs=read-write',
        DATABASE_DIRECT_URL: 'postgresql://u@primary:5432/identity',
        DATABASE_REPLICA_URL:
          'postgresql://u@replica-1,replica-2/identity?target_session_attrs=standby, postgresql://u@replica-3/identity',
        DATABASE_REPLICA_MAX_LAG_MS: '500',
        DATA_DIR: '/var/lib/identity',
        DATABASE_POOL_SIZE: '20',
        DATABASE_PREPARED_STATEMENTS: 'false',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_QUERY_TIMEOUT_MS: '9000',
        MIGRATE_ON_START: 'false',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'debug',
        REDIS_URL: 'redis://cache:6379/0',
        RATE_LIMIT: '100',
        RATE_LIMIT_FAILED_AUTH: '20',
        RATE_LIMIT_WINDOW_SECONDS: '10',
        REDIS_TIMEOUT_MS: '150',
        TRUST_PROXY: '10.0.0.0/8, loopback',
        WEBHOOK_DELIVERY: 'false',
        WEBHOOK_POLL_MS: '250',
        WEBHOOK_TIMEOUT_MS: '5000',
        WEBHOOK_LEASE_SECONDS: '30',
        WEBHOOK_RETRY_BASE_MS: '1000',
        WEBHOOK_RETRY_MAX_MS: '600000',
        WEBHOOK_RETRY_SECONDS: '86400',
        WEBHOOK_CONCURRENCY: '4',
        WEBHOOK_LOG_DAYS: '3',
        WEBHOOK_PRIVATE_NETWORK_TENANTS: 'acme, beta',
        EGRESS_PRIVATE_NETWORK_TENANTS: 'gamma, acme',
        CORS_ORIGINS: 'https://app.example, http://localhost:5173',
        HTTP_REQUEST_TIMEOUT_MS: '20000',
        HTTP_HEADERS_TIMEOUT_MS: '5000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
        JWKS_COOLDOWN_MS: '1000',
        JWKS_TIMEOUT_MS: '500',
        JWKS_CACHE_MB: '8',
        PUBLIC_URL: 'https://id.example.com/base',
        LINK_TICKET_SECONDS: '60',
        LINK_ATTEMPT_SECONDS: '120',
        METRICS_TOKEN: 'scrape-secret-0123456789',
        METRICS_TENANT_LABELS: 'true',
        METRICS_CACHE_SECONDS: '0',
        TENANT_MAX_PROVIDERS: '5',
        TENANT_MAX_TOKENS: '20',
        AUDIT_LOG_DAYS: '30',
        WEBHOOK_REPLAY_SECONDS: '0',
        SECRET_KEYS_FILE: '/run/secrets/identity-keys',
      }),
    ).toStrictEqual({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl:
        'postgresql://u@db-1:5432,db-2:5432/identity?target_session_attrs=read-write',
      databaseDirectUrl: 'postgresql://u@primary:5432/identity',
      databaseReplicaUrls: [
        'postgresql://u@replica-1,replica-2/identity?target_session_attrs=standby',
        'postgresql://u@replica-3/identity',
      ],
      databaseReplicaMaxLagMs: 500,
      dataDir: '/var/lib/identity',
      databasePoolSize: 20,
      databasePreparedStatements: false,
      databaseConnectTimeoutMs: 2000,
      databaseQueryTimeoutMs: 9000,
      migrateOnStart: false,
      seedDemo: false,
      egressPrivateNetworkTenants: ['gamma', 'acme', 'beta'],
      logLevel: 'debug',
      redisUrl: 'redis://cache:6379/0',
      rateLimit: 100,
      rateLimitFailedAuthentications: 20,
      rateLimitWindowSeconds: 10,
      redisTimeoutMs: 150,
      trustProxy: '10.0.0.0/8, loopback',
      secretKeys: {
        kind: 'file',
        path: '/run/secrets/identity-keys',
        own: false,
      },
      webhooks: {
        deliver: false,
        pollMs: 250,
        timeoutMs: 5000,
        leaseMs: 30_000,
        retryBaseMs: 1000,
        retryMaxMs: 600_000,
        retrySeconds: 86_400,
        concurrency: 4,
        tenantConcurrency: 4,
        claimMs: 30_000,
        logDays: 3,
        privateNetworkTenants: ['gamma', 'acme', 'beta'],
      },
      corsOrigins: ['https://app.example', 'http://localhost:5173'],
      requestTimeoutMs: 20000,
      headersTimeoutMs: 5000,
      keepAliveTimeoutMs: 65000,
      jwksCooldownMs: 1000,
      jwksCacheBytes: 8 * 1024 * 1024,
      jwksTimeoutMs: 500,
      publicUrl: 'https://id.example.com/base',
      linkTicketSeconds: 60,
      linkAttemptSeconds: 120,
      metrics: {
        token: 'scrape-secret-0123456789',
        tenantLabels: true,
        cacheMs: 0,
      },
      quotas: {
        providers: 5,
        tokens: 20,
        auditLogDays: 30,
        webhookReplaySeconds: 0,
      },
    });
  });

  it('seeds the demo by default on the embedded database only', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/x' }).seedDemo).toBe(
      false,
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://db/x', SEED_DEMO: 'true' })
        .seedDemo,
    ).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('listens on loopback by default on the embedded database only', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://db/x' }).host,
    ).toBeUndefined();
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('reads TRUST_PROXY as a flag or a hop count', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).port).toBe(3000);
  });

  it.each([
    ['PORT', '0', 'must be a whole number from 1 to 65535'],
    ['PORT', '3000abc', 'must be a whole number from 1 to 65535'],
    [
      'DATABASE_URL',
      'mysql://x',
      'must be a postgresql:// connection string (or libpq key=value pairs)',
    ],
    [
      'DATABASE_URL',
      'postgresql://db1,db2/x?target_session_attrs=master',
      'has target_session_attrs=master; libpq knows any, read-write, read-only, primary, standby, prefer-standby',
    ],
    [
      'DATABASE_URL',
      'host=db1,db2 port=1,2,3 dbname=x',
      'has 2 hosts and 3 ports; libpq takes one port for all hosts or one per host',
    ],
    [
      'DATABASE_URL',
      'postgresql://ada@db/identity%zz',
      'has a malformed percent-escape in its user, password or database name (a % itself is written %25)',
    ],
    [
      'DATABASE_DIRECT_URL',
      'postgresql://ada%e9@db/identity',
      'has a malformed percent-escape in its user, password or database name (a % itself is written %25)',
    ],
    [
      'DATABASE_REPLICA_URL',
      'postgresql://r1/x, postgresql://r2/100%',
      'has a malformed percent-escape in its user, password or database name (a % itself is written %25)',
    ],
    ['DATABASE_POOL_SIZE', '-1', 'must be a whole number from 1 to 1000'],
    [
      'DATABASE_REPLICA_URL',
      'postgresql://r1/x, mysql://r2/x',
      'must be postgresql:// connection strings separated by commas (or one string of libpq key=value pairs)',
    ],
    [
      'DATABASE_REPLICA_MAX_LAG_MS',
      '5',
      'must be a whole number from 10 to 600000',
    ],
    ['MIGRATE_ON_START', 'yes', 'must be true or false'],
    [
      'PUBLIC_URL',
      'https://id.example.com/',
      'must be the http(s) address browsers reach the service at, without a query or a trailing slash',
    ],
    ['LINK_TICKET_SECONDS', '5', 'must be a whole number from 10 to 3600'],
    ['METRICS_CACHE_SECONDS', '3601', 'must be a whole number from 0 to 3600'],
    ['JWKS_CACHE_MB', '2', 'must be a whole number from 4 to 4096'],
    ['TENANT_MAX_PROVIDERS', '0', 'must be a whole number from 1 to 10000'],
    ['TENANT_MAX_TOKENS', '0', 'must be a whole number from 1 to 1000000'],
    ['AUDIT_LOG_DAYS', '0', 'must be a whole number from 1 to 36500'],
    [
      'WEBHOOK_REPLAY_SECONDS',
      '86401',
      'must be a whole number from 0 to 86400',
    ],
    [
      'LOG_LEVEL',
      'loud',
      'must be one of fatal, error, warn, log, debug, verbose',
    ],
  ])('names %s=%s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      `Invalid configuration:\n  ${name}=${JSON.stringify(value)}: ${message}`,
    );
  });

  it.each(['DATABASE_DIRECT_URL', 'DATABASE_REPLICA_URL'])(
    'refuses %s without DATABASE_URL',
    (name) => {
      expect(() =>
        loadConfig({ [name]: 'postgresql://ada:s3cret@db/identity' }),
      ).toThrow(
        `Invalid configuration:\n  ${name}="postgresql://ada:***@db/identity": needs DATABASE_URL; the embedded database has neither a pooler nor replicas`,
      );
    },
  );

  it.each([
    ['postgresql://ada:s3cret@db:5432/x', 'postgresql://ada:***@db:5432/x'],
    ['postgresql://ada:s3c@ret@db/x', 'postgresql://ada:***@db/x'],
    [
      'postgresql://ada@db/x?password=s3cret&a=1',
      'postgresql://ada@db/x?password=***&a=1',
    ],
    ['postgresql://db/x', 'postgresql://db/x'],
    ['ada:s3cret@db', 'ada:***@db'],
    [
      'postgresql://ada:s3cret@db1:5432,db2:5432/x',
      'postgresql://ada:***@db1:5432,db2:5432/x',
    ],
    ['host=db password=s3cret user=ada', 'host=db password=*** user=ada'],
    [
      "host=db password = 'a s\\'cret' dbname=x",
      'host=db password = *** dbname=x',
    ],
  ])('redacts %s as %s', (url, shown) => {
    expect(redactCredentials(url)).toBe(shown);
  });

  it('never echoes a METRICS_TOKEN it refuses', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short secret' })).toThrow(
      'Invalid configuration:\n  METRICS_TOKEN=(not shown): must be 16 to 512 printable characters without spaces',
    );
  });

  it('never echoes a password of a connection string it refuses', () => {
    expect(() =>
      loadConfig({
        DATABASE_URL: 'postgresql://ada:pa ss@db/identity',
        REDIS_URL: 'redis ://:hunter2@cache:6379?password=hunter2',
      }),
    ).toThrow(
      'Invalid configuration:\n' +
        '  DATABASE_URL="postgresql://ada:***@db/identity": must be a postgresql:// connection string (or libpq key=value pairs)\n' +
        '  REDIS_URL="redis ://:***@cache:6379?password=***": must be a redis:// or rediss:// URL',
    );
  });
});
