// The OpenAPI document exactly as the service serves it, built from dist/
// without a server or a database server: the app is made on an in-memory
// embedded database and never started. Shared by scripts/lint-openapi.js
// and the typed client's generator (clients/typescript/scripts/generate.mjs).
const { join } = require('node:path');

const ROOT = join(__dirname, '..');

/** The served document, through JSON as a client receives it. */
async function servedOpenApiDocument() {
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require(join(ROOT, 'dist', 'app.module'));
  const { loadConfig } = require(join(ROOT, 'dist', 'config', 'app-config'));
  const { buildOpenApiDocument } = require(join(ROOT, 'dist', 'ops', 'openapi'));
  const config = loadConfig({
    DATA_DIR: 'memory://',
    MIGRATE_ON_START: 'false',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), {
    logger: false,
    bodyParser: false,
  });
  try {
    return JSON.parse(JSON.stringify(buildOpenApiDocument(app)));
  } finally {
    await app.close();
  }
}

module.exports = { servedOpenApiDocument };
