#!/usr/bin/env node
// `npm test`: the unit tests first, so that a mistake shows in seconds, then
// the end-to-end and browser tests, two files at a time (each has its own
// database, embedded or a copy of the PostgreSQL template, and its own
// ports). Prints Jest's line per file and its failures, then one summary
// line; the results of each part are in test-artifacts/ (Jest's JSON).
//
//   npm test [-- <Jest options and patterns>]
// With --selectProjects, Jest runs once, as asked.
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const args = process.argv.slice(2);

/** The end-to-end files at once: one per core, at least two. */
const E2E_WORKERS = process.env.TEST_WORKERS ?? '2';

const PARTS = args.some((a) => a.startsWith('--selectProjects'))
  ? [{ name: 'selected', projects: [], workers: undefined }]
  : [
      { name: 'unit', projects: ['unit'], workers: undefined },
      {
        name: 'e2e',
        projects: ['e2e-postgres', 'e2e-embedded', 'browser'],
        workers: E2E_WORKERS,
      },
    ];

mkdirSync(ARTIFACTS, { recursive: true });
const started = Date.now();
const totals = { passed: 0, failed: 0, skipped: 0, suitesFailed: 0 };
const parts = [];
let status = 0;
for (const part of PARTS) {
  const output = join(ARTIFACTS, `jest-${part.name}.json`);
  const partStarted = Date.now();
  const run = spawnSync(
    process.execPath,
    [
      '--experimental-vm-modules',
      JEST,
      ...(part.projects.length ? ['--selectProjects', ...part.projects] : []),
      ...(part.workers ? [`--maxWorkers=${part.workers}`] : []),
      '--passWithNoTests',
      '--json',
      `--outputFile=${output}`,
      ...args,
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (run.status !== 0) status = run.status ?? 1;
  let result;
  try {
    result = JSON.parse(readFileSync(output, 'utf8'));
  } catch {
    // Jest stopped before writing its results (a configuration error): it said why.
    status ||= 1;
    continue;
  }
  totals.passed += result.numPassedTests;
  totals.failed += result.numFailedTests;
  totals.skipped += result.numPendingTests + result.numTodoTests;
  // A file that fails to load has no failed test, only a failed suite.
  totals.suitesFailed += result.numRuntimeErrorTestSuites;
  parts.push(
    `${part.name} ${result.numTotalTests} in ${Math.round((Date.now() - partStarted) / 1000)} s`,
  );
}
const summary =
  `Tests: ${totals.passed} passed, ${totals.failed} failed` +
  (totals.skipped ? `, ${totals.skipped} skipped` : '') +
  (totals.suitesFailed ? `, ${totals.suitesFailed} files that did not run` : '') +
  ` (${parts.join('; ')}), ${Math.round((Date.now() - started) / 1000)} s in all`;
console.log(`\n${summary}`);
process.exit(status);
