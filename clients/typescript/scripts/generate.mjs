#!/usr/bin/env node
// Writes src/schema.ts, the client's types, from the service's OpenAPI
// document with openapi-typescript. Without arguments the document is built
// as the service serves it, from the root's dist/ (scripts/openapi-document.js,
// which scripts/lint-openapi.js uses too).
//
//   node clients/typescript/scripts/generate.mjs [--document FILE] [--output FILE]
//
// test/typescript-client.pg-e2e-spec.ts runs it on the document a running
// service serves and fails when the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(PACKAGE, '..', '..');

const HEADER = `// The service's OpenAPI document as types, written by
// \`npm run client:generate\` (openapi-typescript); never edit it by hand:
// a test fails when it differs from what the served document generates.
`;

const { values } = parseArgs({
  options: {
    document: { type: 'string' },
    output: { type: 'string', default: join(PACKAGE, 'src', 'schema.ts') },
  },
});
const document = values.document
  ? JSON.parse(readFileSync(values.document, 'utf8'))
  : await createRequire(join(ROOT, 'package.json'))(
      join(ROOT, 'scripts', 'openapi-document.js'),
    ).servedOpenApiDocument();
const types = astToString(await openapiTS(document));
writeFileSync(values.output, HEADER + types);
console.log(
  `${values.output} written from the OpenAPI document ${document.info.version}`,
);
