// Tests run through SWC (decorators with metadata, CommonJS output). The
// @nestjs packages (and the OpenAPI parser) ship as ES modules, so they are
// transformed as well.
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
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@apidevtools|jose)/)'],
};

/** End-to-end tests run twice: on PostgreSQL and on the embedded PGlite. */
const e2e = (name, database, extra = []) => ({
  ...common,
  displayName: name,
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', ...extra],
  globals: { TEST_DATABASE_KIND: database },
});

module.exports = {
  // Starting a server or an embedded database takes seconds on a loaded machine.
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: 'unit', rootDir: '.', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    // *.pg-e2e-spec.ts need servers several processes share (PostgreSQL, Redis).
    e2e('e2e-postgres', 'postgres', ['<rootDir>/test/**/*.pg-e2e-spec.ts']),
    e2e('e2e-embedded', 'embedded'),
    // A real browser against the built server (Debian's chromium).
    { ...common, displayName: 'browser', rootDir: '.', testMatch: ['<rootDir>/test/**/*.browser-spec.ts'] },
  ],
};
