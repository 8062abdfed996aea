#!/usr/bin/env node
// Builds the administrators' console (console/) into dist/console/: one
// script and one style sheet, minified, beside its index.html. The service
// serves these files as they are (src/ops/console.ts); nothing is loaded
// from anywhere else at run time.
const { build } = require('esbuild');
const { copyFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const SOURCE = join(ROOT, 'console');
const OUT = join(ROOT, 'dist', 'console');

async function main() {
  mkdirSync(OUT, { recursive: true });
  await build({
    entryPoints: [join(SOURCE, 'src', 'main.tsx')],
    outfile: join(OUT, 'console.js'),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  await build({
    entryPoints: [join(SOURCE, 'console.css')],
    outfile: join(OUT, 'console.css'),
    bundle: true,
    minify: true,
    target: 'es2022',
    logLevel: 'warning',
  });
  copyFileSync(join(SOURCE, 'index.html'), join(OUT, 'index.html'));
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
