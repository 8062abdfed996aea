#!/usr/bin/env node
// Builds the Dockerfile's image file system for real, without a Docker
// daemon, and starts it as the image would run:
//
// - each stage is a throwaway root directory; its base image
//   (node:<major>-bookworm-slim) is this machine's Debian with the official
//   Node.js binary of that major, read-only;
// - COPY brings exactly what it names, from the build context (with
//   .dockerignore applied) or from an earlier stage, with its --chown;
// - RUN, and finally CMD, run chrooted in that root (a mount namespace of
//   their own), with the image's ENV, WORKDIR and USER;
// - the result must answer /health/ready 200 on PostgreSQL (a database of
//   its own, dropped after) and on the embedded database, run as the
//   image's user.
//
// Instructions it does not know fail the check, so a Dockerfile change
// that it cannot follow is seen. Needs root (mounts, chroot); Linux x64.
//
//   node scripts/image-check.js [--keep]
'use strict';
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  chmodSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir, homedir } = require('node:os');
const { dirname, join, posix, relative, resolve } = require('node:path');
const { randomBytes } = require('node:crypto');

const ROOT = resolve(__dirname, '..');
const KEEP = process.argv.includes('--keep');
/** The official node images' unprivileged user. */
const USERS = { root: [0, 0], node: [1000, 1000] };
/** A Node.js version per major the base images may name. */
const NODE_OF_MAJOR = {
  [readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim().split('.')[0]]: readFileSync(
    join(ROOT, '.nvmrc'),
    'utf8',
  ).trim(),
  22: '22.23.3',
};

class CheckFailed extends Error {}
function fail(message) {
  throw new CheckFailed(message);
}
/** Every stage's root, removed at the end whatever happened (unless --keep). */
const roots = [];

/** The Dockerfile's stages and their instructions. */
function parse(text) {
  const lines = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    if (!pending && /^\s*#/.test(raw)) continue;
    const line = pending + raw.replace(/\s+$/, '');
    if (line.endsWith('\\')) pending = line.slice(0, -1) + ' ';
    else {
      pending = '';
      if (line.trim()) lines.push(line.trim());
    }
  }
  const stages = [];
  for (const line of lines) {
    const [, op, rest] = /^(\w+)\s+([\s\S]*)$/.exec(line) ?? [];
    if (!op) fail(`cannot read "${line}"`);
    const instruction = op.toUpperCase();
    if (instruction === 'FROM') {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest) ?? [];
      const major = /^node:(\d+)-bookworm(-slim)?$/.exec(image ?? '')?.[1];
      if (!major || !NODE_OF_MAJOR[major])
        fail(`FROM ${rest}: only node:<${Object.keys(NODE_OF_MAJOR).join('|')}>-bookworm[-slim] can be built here`);
      stages.push({ name: name ?? String(stages.length), major, steps: [] });
      continue;
    }
    if (!stages.length) fail(`${instruction} before FROM`);
    stages.at(-1).steps.push({ op: instruction, rest });
  }
  return stages;
}

/** Whether a context path is left out by .dockerignore (patterns from the context root). */
function ignoredBy(patterns) {
  const rules = patterns.map((pattern) => {
    const negate = pattern.startsWith('!');
    const body = posix.normalize(negate ? pattern.slice(1) : pattern).replace(/^\/+/, '');
    const regex = new RegExp(
      '^' +
        body
          .split('**')
          .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
          .join('.*') +
        '(/.*)?$',
    );
    return { negate, regex };
  });
  return (path) => rules.reduce((out, rule) => (rule.regex.test(path) ? !rule.negate : out), false);
}

function contextFiles() {
  const file = join(ROOT, '.dockerignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
    : [];
  return ignoredBy(patterns);
}

/** Runs `command` chrooted in a stage's root, as `user`, with `env`, in `cwd`. */
function inStage(stage, command, { user = 'root', env = {}, cwd = '/', detached = false } = {}) {
  const [uid, gid] = USERS[user] ?? fail(`USER ${user}: unknown user`);
  const root = stage.root;
  const npmrc = join(homedir(), '.npmrc');
  const mounts = [
    `mount --bind -o ro /usr ${root}/usr`,
    `mount --bind -o ro /etc ${root}/etc`,
    // The base image's users: this machine's, and the image's `node`.
    `mount --bind -o ro ${root}/.image/passwd ${root}/etc/passwd`,
    `mount --bind -o ro ${root}/.image/group ${root}/etc/group`,
    `mount --bind /dev ${root}/dev`,
    `mount -t proc proc ${root}/proc`,
    `mount --bind -o ro ${stage.nodeBin} ${root}/opt/node/bin`,
    ...(user === 'root' && existsSync(join(homedir(), '.npm')) ? [`mount --bind ${join(homedir(), '.npm')} ${root}/root/.npm`] : []),
    ...(user === 'root' && existsSync(npmrc) ? [`mount --bind -o ro ${npmrc} ${root}/root/.npmrc`] : []),
  ];
  const environment = {
    PATH: '/opt/node/bin:/usr/local/bin:/usr/bin:/bin',
    // The host's npm cache is bound in (root's stages): its package
    // documents are used as they are, not revalidated one by one (1,198
    // requests; 3 minutes of `npm ci` here, 52 s without). The lockfile
    // pins every version and checksum, so what is installed is the same.
    npm_config_prefer_offline: 'true',
    HOME: user === 'root' ? '/root' : '/tmp',
    ...env,
  };
  const exported = Object.entries(environment).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const as = user === 'root' ? '' : `setpriv --reuid=${uid} --regid=${gid} --clear-groups `;
  const script =
    `set -e; ${mounts.join('; ')}; ` +
    `exec chroot ${root} /usr/bin/env -i ${exported.join(' ')} ${as}/bin/sh -c ${shellQuote(`cd ${cwd} && ${command}`)}`;
  const args = ['--mount', '--propagation', 'private', '/bin/sh', '-c', script];
  if (detached) return spawn('unshare', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const result = spawnSync('unshare', args, { stdio: 'inherit' });
  if (result.status !== 0) fail(`"${command}" exited with ${result.status ?? result.signal}`);
}

const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

function newStage(definition) {
  const root = mkdtempSync(join(tmpdir(), `image-${definition.name}-`));
  roots.push(root);
  // As an image's root: every user may enter it.
  chmodSync(root, 0o755);
  for (const dir of ['usr', 'etc', 'dev', 'proc', 'tmp', 'opt/node/bin', 'root/.npm', 'var'])
    mkdirSync(join(root, dir), { recursive: true });
  chmodSync(join(root, 'tmp'), 0o1777);
  for (const link of ['bin', 'lib', 'lib64', 'sbin'])
    if (lstatSync(`/${link}`, { throwIfNoEntry: false })?.isSymbolicLink())
      symlinkSync(`usr/${link}`, join(root, link));
  execFileSync('touch', [join(root, 'root/.npmrc')]);
  mkdirSync(join(root, '.image'));
  const withNode = (file, line) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && !/^node:/.test(l))
      .concat(line, '')
      .join('\n');
  writeFileSync(join(root, '.image/passwd'), withNode('/etc/passwd', 'node:x:1000:1000::/home/node:/bin/sh'));
  writeFileSync(join(root, '.image/group'), withNode('/etc/group', 'node:x:1000:'));
  const version = NODE_OF_MAJOR[definition.major];
  const nodeBin = execFileSync(join(ROOT, 'scripts', 'node-path.sh'), [version], { encoding: 'utf8' }).trim();
  return { ...definition, root, nodeBin, env: {}, workdir: '/', user: 'root', cmd: undefined };
}

function copy(stage, stages, rest) {
  const words = rest.split(/\s+/);
  const flags = {};
  while (words[0]?.startsWith('--')) {
    const [, key, value] = /^--(\w+)=(\S+)$/.exec(words.shift()) ?? fail(`COPY ${rest}: cannot read its flags`);
    flags[key] = value;
  }
  if (Object.keys(flags).some((k) => k !== 'from' && k !== 'chown')) fail(`COPY ${rest}: only --from and --chown are followed`);
  const dest = words.pop();
  const target = posix.resolve(stage.workdir, dest);
  const from = flags.from !== undefined ? stages.find((s) => s.name === flags.from) ?? fail(`COPY --from=${flags.from}: no such stage`) : undefined;
  const ignored = contextFiles();
  const copied = [];
  for (const source of words) {
    let origin;
    if (from) origin = join(from.root, posix.resolve(from.workdir, source));
    else {
      origin = join(ROOT, source);
      if (relative(ROOT, origin).startsWith('..')) fail(`COPY ${source}: outside the context`);
      if (source !== '.' && ignored(posix.normalize(source))) fail(`COPY ${source}: left out by .dockerignore`);
    }
    if (!existsSync(origin)) fail(`COPY ${source}: not found`);
    const isDir = lstatSync(origin).isDirectory();
    const into = isDir || dest.endsWith('/') || words.length > 1
      ? isDir ? target : posix.join(target, posix.basename(source))
      : target;
    const destination = join(stage.root, into);
    mkdirSync(isDir ? destination : dirname(destination), { recursive: true });
    cpSync(origin, destination, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (path) => from !== undefined || !ignored(relative(ROOT, path).split('\\').join('/')) || path === ROOT,
    });
    copied.push(destination);
  }
  if (flags.chown) {
    const [user] = flags.chown.split(':');
    const [uid, gid] = USERS[user] ?? fail(`COPY --chown=${flags.chown}: unknown user`);
    for (const path of copied) execFileSync('chown', ['-R', `${uid}:${gid}`, path]);
  }
}

function build() {
  const stages = [];
  for (const definition of parse(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))) {
    const stage = newStage(definition);
    stages.push(stage);
    console.log(`image check: stage ${stage.name} (node ${NODE_OF_MAJOR[stage.major]}) in ${stage.root}`);
    for (const { op, rest } of stage.steps) {
      console.log(`image check: ${op} ${rest}`);
      switch (op) {
        case 'WORKDIR':
          stage.workdir = posix.resolve(stage.workdir, rest);
          mkdirSync(join(stage.root, stage.workdir), { recursive: true });
          break;
        case 'COPY':
          copy(stage, stages, rest);
          break;
        case 'RUN':
          if (rest.startsWith('[')) fail('RUN in exec form is not followed');
          inStage(stage, rest, { user: stage.user, env: stage.env, cwd: stage.workdir });
          break;
        case 'ENV':
          for (const pair of rest.split(/\s+/)) {
            const [, key, value] = /^(\w+)=(\S*)$/.exec(pair) ?? fail(`ENV ${rest}: only KEY=value pairs are followed`);
            stage.env[key] = value;
          }
          break;
        case 'USER':
          if (!USERS[rest]) fail(`USER ${rest}: unknown user`);
          stage.user = rest;
          break;
        case 'VOLUME':
          for (const path of JSON.parse(rest.startsWith('[') ? rest : JSON.stringify(rest.split(/\s+/))))
            mkdirSync(join(stage.root, path), { recursive: true });
          break;
        case 'CMD':
          stage.cmd = JSON.parse(rest);
          break;
        case 'EXPOSE':
        case 'HEALTHCHECK':
        case 'LABEL':
          break;
        default:
          fail(`${op}: not an instruction this check follows`);
      }
    }
  }
  return stages;
}

async function ready(port, child, log) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) return `exited with ${child.exitCode}:\n${log()}`;
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.status, () => 0);
    if (status === 200) return undefined;
    await new Promise((done) => setTimeout(done, 300));
  }
  return `no 200 from /health/ready in 90 s:\n${log()}`;
}

async function start(image, name, env) {
  // Below the ephemeral range (32768 and up on Linux), where any outgoing
  // connection of the machine may hold a port the server then cannot bind.
  const port = 20000 + Math.floor(Math.random() * 12000);
  const command = image.cmd.map(shellQuote).join(' ');
  const child = inStage(image, `exec ${command}`, {
    user: image.user,
    env: { ...image.env, PORT: String(port), ...env },
    cwd: image.workdir,
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    const problem = await ready(port, child, () => output);
    if (problem) fail(`on ${name}, as ${image.user}: ${problem}`);
    console.log(`image check: on ${name}, as ${image.user}: /health/ready 200`);
  } finally {
    if (child.exitCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      await new Promise((done) => child.once('exit', done));
    }
  }
}

async function main() {
  if (process.getuid?.() !== 0) fail('needs root (mount namespaces and chroot)');
  const stages = build();
  const image = stages.at(-1);
  if (!image.cmd) fail('the last stage has no CMD');
  const database = `identity_image_${randomBytes(4).toString('hex')}`;
  const admin = { PGHOST: '127.0.0.1', PGPORT: '5432', PGUSER: 'postgres', ...process.env };
  execFileSync('psql', ['-q', '-c', `CREATE DATABASE ${database}`, 'postgres'], { env: admin });
  try {
    await start(image, 'PostgreSQL', {
      DATABASE_URL: `postgresql://${admin.PGUSER}@${admin.PGHOST}:${admin.PGPORT}/${database}`,
    });
    await start(image, 'the embedded database', {});
  } finally {
    execFileSync('psql', ['-q', '-c', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, 'postgres'], { env: admin });
  }
}

main()
  .then(() => console.log('image check: built and started as the image runs'))
  .catch((error) => {
    console.error(`image check: ${error instanceof CheckFailed ? error.message : error.stack}`);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!KEEP) for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
