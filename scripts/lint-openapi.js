#!/usr/bin/env node
// Writes the OpenAPI document exactly as the service serves it, without a
// server or a database server (scripts/openapi-document.js), and runs the outside linters on it with the
// repository's rulesets (.spectral.yaml, redocly.yaml). Any error or warning
// fails: a rule that does not fit is switched off there, with its reason.
const { spawnSync } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { servedOpenApiDocument } = require('./openapi-document');

const ROOT = join(__dirname, '..');
const OUTPUT = join(ROOT, 'test-artifacts', 'openapi.json');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

async function writeDocument() {
  const document = await servedOpenApiDocument();
  mkdirSync(dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, `${JSON.stringify(document, null, 2)}\n`);
}

// The linters run offline: no telemetry, no update check.
const OFFLINE = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
};

function run(name, args) {
  const result = spawnSync(bin(name), args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: OFFLINE,
  });
  if (result.error) throw result.error;
  return result;
}

function spectral() {
  const { status, stdout, stderr } = run('spectral', [
    'lint',
    '--fail-severity=warn',
    OUTPUT,
  ]);
  process.stdout.write(stdout + stderr);
  return status === 0;
}

// Redocly fails on errors only; its JSON report counts the warnings too.
function redocly() {
  const { stdout, stderr } = run('redocly', ['lint', '--format=json', OUTPUT]);
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    process.stdout.write(stdout + stderr);
    return false;
  }
  for (const p of report.problems)
    console.log(
      `${p.severity} ${p.ruleId} ${p.message} (${p.location.map((l) => l.pointer).join(', ')})`,
    );
  const { errors, warnings } = report.totals;
  console.log(`redocly: ${errors} errors, ${warnings} warnings`);
  return errors + warnings === 0;
}

writeDocument()
  .then(() => {
    console.log(`OpenAPI document written to ${OUTPUT}`);
    const passed = [spectral(), redocly()].every(Boolean);
    process.exit(passed ? 0 : 1);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
