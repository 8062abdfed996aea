#!/usr/bin/env node
// An unsupported Node.js stops here, in one line, before anything else.
require('./check-node');
// Builds dist/ when it is missing or older than anything it is built from,
// so that `npm start`, `npm run cli` and the tests never run stale code and
// never spend seconds rebuilding code that is current. `npm run build`
// always builds.
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const INPUTS = [
  'src',
  'console',
  'prisma/schema.prisma',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
];
const OUTPUTS = ['dist/main.js', 'dist/cli.js', 'dist/console/console.js'];

/** The newest modification time below `path` (a file or a folder). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (latest, name) => Math.max(latest, newest(join(path, name))),
    stat.mtimeMs,
  );
}


const built = Math.min(...OUTPUTS.map((file) => newest(join(ROOT, file)) || -1));
const sources = Math.max(...INPUTS.map((input) => newest(join(ROOT, input))));
if (built > sources) process.exit(0);

console.error('Building the service (dist/ is missing or older than its sources)…');
const npm = process.env.npm_execpath;
const result = npm
  ? spawnSync(process.execPath, [npm, 'run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' })
  : spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);
