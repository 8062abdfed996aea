import { loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toStrictEqual({
      port: 3000,
      databaseUrl: undefined,
      dataDir: '.data/pglite',
      databasePoolSize: 10,
      migrateOnStart: true,
      seedDemo: true,
      logLevel: 'log',
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        DATABASE_URL: 'postgresql://u@db:5432/identity',
        DATA_DIR: '/var/lib/identity',
        DATABASE_POOL_SIZE: '20',
        MIGRATE_ON_START: 'false',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'debug',
      }),
    ).toStrictEqual({
      port: 8080,
      databaseUrl: 'postgresql://u@db:5432/identity',
      dataDir: '/var/lib/identity',
      databasePoolSize: 20,
      migrateOnStart: false,
      seedDemo: false,
      logLevel: 'debug',
    });
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
