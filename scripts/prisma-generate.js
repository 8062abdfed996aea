#!/usr/bin/env node
// Generates the Prisma client. `prisma generate` never runs the native
// schema engine, but the CLI insists on finding one first; pointing
// PRISMA_SCHEMA_ENGINE_BINARY at an existing file lets generation work on
// machines that cannot download the engine. An explicit setting wins.
require('./check-node');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(__dirname, '..', 'package.json');
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const result = spawnSync(
  process.execPath,
  [require.resolve('prisma/build/index.js'), 'generate', '--no-hints'],
  { env, encoding: 'utf8' },
);
if (result.status !== 0) process.stderr.write(result.stdout + result.stderr);
process.exit(result.status ?? 1);
