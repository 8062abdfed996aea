// Tests run through SWC (decorators with metadata, CommonJS output). The
// @nestjs packages, Kysely (and the OpenAPI parser) ship as ES modules, so
// they are transformed as well: Jest on Node.js 22 cannot require them.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2023',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@apidevtools|jose|kysely)/)'],
};

/**
 * End-to-end tests run twice: on PostgreSQL and on the embedded PGlite. The
 * global setup migrates a template database once; each test's database is a
 * copy of it.
 */
const e2e = (name, database, hooks, extra = []) => ({
  ...common,
  displayName: name,
  rootDir: '.',
  testMatch: [
    '<rootDir>/test/**/*.e2e-spec.ts',
    // The middle layer: services with their repositories, without HTTP.
    '<rootDir>/test/medium/*.medium-spec.ts',
    ...extra,
  ],
  globals: { TEST_DATABASE_KIND: database },
  ...hooks,
});

module.exports = {
  // Starting a server or an embedded database takes seconds on a loaded machine.
  testTimeout: 60_000,
  // A line per file, its failures and the summary; with TEST_PROGRESS=1
  // each test's result as it finishes, too. Not verbose, which would list a
  // lone file's tests a second time at its end.
  reporters: process.env.TEST_PROGRESS
    ? ['default', '<rootDir>/test/support/progress-reporter.js']
    : ['default'],
  verbose: false,
  // Every test file loads the service's modules anew (Nest, Prisma, PGlite)
  // and the heap keeps some of each: in Jest's own process it passes 1 GB by
  // the end of a run, and every file after runs slower. Tests run in a
  // worker instead, restarted once its heap passes this.
  workerIdleMemoryLimit: '600MB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
    },
    // *.pg-e2e-spec.ts need servers several processes share (PostgreSQL, Redis).
    e2e(
      'e2e-postgres',
      'postgres',
      { globalSetup: '<rootDir>/test/support/postgres-setup.ts' },
      ['<rootDir>/test/**/*.pg-e2e-spec.ts'],
    ),
    // *.embedded-e2e-spec.ts need an embedded database on disk, not a shared server.
    e2e(
      'e2e-embedded',
      'embedded',
      {
        globalSetup: '<rootDir>/test/support/embedded-setup.ts',
        globalTeardown: '<rootDir>/test/support/embedded-teardown.ts',
      },
      ['<rootDir>/test/**/*.embedded-e2e-spec.ts'],
    ),
    // A real browser against the built server (Debian's chromium).
    {
      ...common,
      displayName: 'browser',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.browser-spec.ts'],
    },
  ],
};
