import { loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toStrictEqual({
      port: 3000,
      databaseUrl: undefined,
      dataDir: '.data/pglite',
      databasePoolSize: 10,
      databaseConnectTimeoutMs: 5000,
      databaseQueryTimeoutMs: 30000,
      migrateOnStart: true,
      seedDemo: true,
      logLevel: 'log',
      redisUrl: undefined,
      rateLimit: 1200,
      rateLimitWindowSeconds: 60,
      trustProxy: false,
      corsOrigins: [],
      requestTimeoutMs: 30000,
      headersTimeoutMs: 10000,
      keepAliveTimeoutMs: 5000,
      jwksCooldownMs: 30000,
      jwksTimeoutMs: 3000,
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        DATABASE_URL: 'postgresql://u@db:5432/identity',
        DATA_DIR: '/var/lib/identity',
        DATABASE_POOL_SIZE: '20',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_QUERY_TIMEOUT_MS: '9000',
        MIGRATE_ON_START: 'false',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'debug',
        REDIS_URL: 'redis://cache:6379/0',
        RATE_LIMIT: '100',
        RATE_LIMIT_WINDOW_SECONDS: '10',
        TRUST_PROXY: '10.0.0.0/8, loopback',
        CORS_ORIGINS: 'https://app.example, http://localhost:5173',
        HTTP_REQUEST_TIMEOUT_MS: '20000',
        HTTP_HEADERS_TIMEOUT_MS: '5000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
        JWKS_COOLDOWN_MS: '1000',
        JWKS_TIMEOUT_MS: '500',
      }),
    ).toStrictEqual({
      port: 8080,
      databaseUrl: 'postgresql://u@db:5432/identity',
      dataDir: '/var/lib/identity',
      databasePoolSize: 20,
      databaseConnectTimeoutMs: 2000,
      databaseQueryTimeoutMs: 9000,
      migrateOnStart: false,
      seedDemo: false,
      logLevel: 'debug',
      redisUrl: 'redis://cache:6379/0',
      rateLimit: 100,
      rateLimitWindowSeconds: 10,
      trustProxy: '10.0.0.0/8, loopback',
      corsOrigins: ['https://app.example', 'http://localhost:5173'],
      requestTimeoutMs: 20000,
      headersTimeoutMs: 5000,
      keepAliveTimeoutMs: 65000,
      jwksCooldownMs: 1000,
      jwksTimeoutMs: 500,
    });
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
    ['DATABASE_URL', 'mysql://x', 'must be a postgresql:// connection string'],
    ['DATABASE_POOL_SIZE', '-1', 'must be a whole number from 1 to 1000'],
    ['MIGRATE_ON_START', 'yes', 'must be true or false'],
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
});
