import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer, Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  documentedExample,
  documents,
  ShellBlock,
  shellBlocks,
} from './support/doc-examples';
import { until } from './support/until';
import { ADMIN_URL } from './support/postgres-admin';
import { freePort } from './support/free-port';
import { logLines, serverEnvironment, startServer } from './support/server';
import {
  createTestDatabase,
  databaseKind,
  serverDataDir,
  TestDatabase,
} from './support/test-database';

// `npm start` as a new user meets it: the built server on an empty
// database loads the demo tenant and prints a curl line that works.
const ROOT = resolve(__dirname, '..');

describe('starting the service', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    db = await createTestDatabase({}, { empty: true });
    env = serverEnvironment(
      db.config,
      await serverDataDir('identity-start-', { empty: true }),
    );
    // As `npm start` runs: on the embedded database the demo tenant may
    // reach loopback by default; on PostgreSQL the operator lists it, as
    // docker-compose.yml does.
    if (db.config.databaseUrl) env.EGRESS_PRIVATE_NETWORK_TENANTS = 'demo';
    else delete env.EGRESS_PRIVATE_NETWORK_TENANTS;
  });
  afterAll(() => db.drop());

  it('loads the demo tenant on first start and prints a working curl line', async () => {
    const server = await startServer(env);
    try {
      // The banner follows the "Listening" line, after a read of the tenant.
      await server.outputLines(/curl -H "Authorization: Bearer/, 1);
      expect(server.output()).toMatch(/Imported the demo tenant \\?"demo/);
      const curl = /curl -H "Authorization: Bearer (\S+)" (\S+)/.exec(
        server.output(),
      );
      expect(curl).not.toBeNull();
      // Which demo tokens still work is no use of them.
      const listed = spawnSync(
        process.execPath,
        [join(ROOT, 'dist', 'cli.js'), 'token', 'list', '--tenant', 'demo'],
        { env, encoding: 'utf8' },
      );
      expect(listed.status).toBe(0);
      const tokens = listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { lastUsedAt: string | null });
      expect(tokens.length).toBeGreaterThan(1);
      expect(tokens.filter((t) => t.lastUsedAt !== null)).toStrictEqual([]);
      const res = await fetch(curl![2], {
        headers: { Authorization: `Bearer ${curl![1]}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        identityId: 'alice',
        displayName: 'Alice Martin',
      });
      expect(server.output()).toMatch(
        /Demo app token: {4}demo-reader-app-token/,
      );
      // The console's token administers the tenant.
      const consoleToken = /Console token: {5}(\S+)/.exec(server.output());
      expect(consoleToken?.[1]).toBe('demo-console-admin-token');
      const settings = await fetch(
        `http://localhost:${env.PORT}/demo/api/admin/v1/tenant`,
        { headers: { Authorization: `Bearer ${consoleToken![1]}` } },
      );
      expect(settings.status).toBe(200);
      expect(server.output()).toContain(
        documentedExample('demo banner').replaceAll(
          'localhost:3000',
          `localhost:${env.PORT}`,
        ),
      );
    } finally {
      await server.stop();
    }
  });

  it('answers every curl example of the README and docs/ as documented', async () => {
    const server = await startServer(env);
    try {
      // Every example without shell variables, in the order of the README,
      // then of the documents by name (the PUT of the README comes first).
      const curlLines = (file: string) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .filter(
            (line) =>
              /^curl .*http:\/\/localhost:3000\//.test(line) &&
              !line.includes('$'),
          );
      const [readme, ...others] = documents();
      expect(readme).toBe(join(ROOT, 'README.md'));
      expect(curlLines(readme).length).toBeGreaterThanOrEqual(6);
      const examples = [readme, ...others].flatMap(curlLines);
      expect(examples.length).toBeGreaterThanOrEqual(16);
      for (const line of examples) {
        const url = /"?(http:\/\/localhost:3000\/[^"\s]+)"?$/
          .exec(line)![1]
          .replace(':3000', `:${env.PORT}`);
        const method = /-X (\w+)/.exec(line)?.[1] ?? 'GET';
        const body = /-d '([^']*)'/.exec(line)?.[1];
        const headers = Object.fromEntries(
          [...line.matchAll(/-H "([^:]+): ([^"]+)"/g)].map(
            ([, name, value]) => [name, value],
          ),
        );
        const res = await fetch(url, {
          method,
          headers,
          body,
          redirect: 'manual',
        });
        const expected =
          method === 'DELETE' ? 204 : line.endsWith('alice-old') ? 308 : 200;
        expect([line, res.status]).toStrictEqual([line, expected]);
      }
      // The documented bodies, after those examples ran.
      const base = `http://localhost:${env.PORT}`;
      const ready = await fetch(`${base}/health/ready`);
      expect(await ready.json()).toStrictEqual(
        JSON.parse(documentedExample('GET /health/ready')),
      );
      const nobody = await fetch(`${base}/demo/api/identity/v1/nobody`, {
        headers: { Authorization: 'Bearer demo-alice-access-token' },
      });
      expect(await nobody.json()).toStrictEqual(
        JSON.parse(
          documentedExample('GET /demo/api/identity/v1/nobody as alice'),
        ),
      );
      const nobodyLine = /"url":"\/demo\/api\/identity\/v1\/nobody"/;
      await server.outputLines(nobodyLine, 1);
      const requestLine = server
        .output()
        .split('\n')
        .find((line) => nobodyLine.test(line));
      const documentedLine = JSON.parse(documentedExample('request log line'));
      expect(JSON.parse(requestLine ?? '{}')).toStrictEqual({
        ...documentedLine,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        req: { ...documentedLine.req, id: expect.any(String) },
        responseTime: expect.any(Number),
      });
      const { occurredAt: _at, ...event } = JSON.parse(
        documentedExample('events of the PUT example'),
      );
      const logged = spawnSync(
        process.execPath,
        [
          join(ROOT, 'dist', 'cli.js'),
          'events',
          '--tenant',
          'demo',
          '--after',
          String(Number(event.id) - 1),
        ],
        { env, encoding: 'utf8' },
      );
      expect(JSON.parse(logged.stdout.split('\n')[0])).toStrictEqual({
        ...event,
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      });
    } finally {
      await server.stop();
    }
  });

  // On PostgreSQL only: the examples' commands behave alike on both
  // databases (the rest of this file and the command line's tests hold
  // that), and each of the seven command lines opens the embedded
  // database anew, some seconds each.
  if (databaseKind() === 'postgres')
    it('runs every shell example with variables of the README and docs/, in order, as printed', async () => {
      const server = await startServer(env);
      const saved = mkdtempSync(join(tmpdir(), 'identity-doc-examples-'));
      try {
        // Each document's blocks that have a `$` (a variable, or a command's
        // output kept in one), one after the other in one bash: the README,
        // then the documents by name. Not run here: the README's block that
        // starts its webhook receiver (scripts/webhook-receiver.js), a process
        // that waits for deliveries, given a secret the reader copies from
        // the answer: the next test runs that block.
        const ran = [];
        const receivers: ShellBlock[] = [];
        for (const file of documents()) {
          const withVariables = shellBlocks(file).filter((block) =>
            block.text.includes('$'),
          );
          receivers.push(...withVariables.filter(startsReceiver));
          const blocks = withVariables.filter(
            (block) => !startsReceiver(block),
          );
          if (blocks.length === 0) continue;
          const run = await runShell(
            blocks.map((block) => withSavedFiles(file, block.text, saved)),
            env,
          );
          ran.push({
            code: run.code,
            ...(run.code !== 0 && { said: run.stderr }),
            blocks: blocks.map((block, i) => ({
              at: block.at,
              ended: i < run.ended,
              answers: run.answers[i] ?? [],
              curls: run.answers[i]?.length ?? 0,
            })),
          });
        }
        const printed = new Map(
          documents()
            .flatMap(shellBlocks)
            .map((block) => [block.at, printedCurls(block.text)]),
        );
        expect(ran).toStrictEqual(
          ran.map((document) => ({
            code: 0,
            blocks: document.blocks.map((block) => ({
              at: block.at,
              ended: true,
              answers: block.answers.map(asDocumented),
              curls: printed.get(block.at),
            })),
          })),
        );
        expect(receivers).toHaveLength(1);
        const blocks = ran.flatMap((document) => document.blocks);
        expect(blocks.length).toBeGreaterThanOrEqual(6);
        expect(blocks[0].at).toMatch(/^README\.md:/);
        expect(
          blocks.flatMap((block) => block.answers).length,
        ).toBeGreaterThanOrEqual(8);
      } finally {
        rmSync(saved, { recursive: true, force: true });
        await server.stop();
      }
      // Seven command lines, each starting the application anew.
    }, 150_000);

  it('delivers the README’s PUT to the README’s webhook receiver, as documented', async () => {
    const server = await startServer(env);
    const port = await freePort();
    const base = `http://localhost:${env.PORT}`;
    // The README's PUTs of bob, in its order: Try it's, then the webhooks'.
    const puts = readFileSync(join(ROOT, 'README.md'), 'utf8')
      .split('\n')
      .filter((line) => /^curl -X PUT .*demo-bob-access-token/.test(line))
      .map((line) => /-d '([^']*)'/.exec(line)![1]);
    expect(puts).toHaveLength(2);
    const bob = (body: string) =>
      fetch(`${base}/demo/api/identity/v1`, {
        method: 'PUT',
        headers: {
          Authorization: 'Bearer demo-bob-access-token',
          'Content-Type': 'application/json',
        },
        body,
      });
    // A reader who followed the page ran Try it's PUT before the webhook.
    expect((await bob(puts[0])).status).toBe(200);
    // The README's block that subscribes its receiver, as printed but for
    // the receiver's port (one found free, not 4000); its last line, the
    // receiver, runs below with the secret of the answer, as the reader
    // copies it in.
    const [block] = shellBlocks(join(ROOT, 'README.md')).filter(startsReceiver);
    const lines = block.text.split('\n');
    expect(lines.pop()).toBe(
      'WEBHOOK_SECRET=<the "secret" of that answer> node scripts/webhook-receiver.js 4000',
    );
    const made = await runShell(
      [lines.join('\n').replaceAll('localhost:4000', `localhost:${port}`)],
      env,
    );
    expect(made).toMatchObject({
      code: 0,
      answers: [
        [
          asDocumented({
            request: 'POST /demo/api/admin/v1/webhooks',
            status: 0,
          }),
        ],
      ],
    });
    const receiver = spawn(
      process.execPath,
      [join(ROOT, 'scripts', 'webhook-receiver.js'), String(port)],
      {
        env: {
          PATH: process.env.PATH,
          WEBHOOK_SECRET: JSON.parse(made.stdout).secret,
        },
      },
    );
    let printed = '';
    let said = '';
    receiver.stdout.on('data', (chunk) => (printed += chunk));
    receiver.stderr.on('data', (chunk) => (said += chunk));
    try {
      await until(() => said.includes('verifying signatures'));
      const res = await bob(puts[1]);
      expect(res.status).toBe(200);
      await until(() => printed.includes('\n'), {
        what: 'a delivery printed by the receiver',
        context: () => said + server.output(),
      });
      const documented = JSON.parse(
        documentedExample('webhook of the PUT example'),
      );
      expect(JSON.parse(printed.split('\n')[0])).toStrictEqual({
        ...documented,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
        data: {
          ...documented.data,
          eventId: expect.stringMatching(/^\d+$/),
          etag: res.headers.get('etag'),
        },
      });
    } finally {
      receiver.kill();
      await server.stop();
    }
  });

  it('does not import the demo again on the next start', async () => {
    const server = await startServer(env);
    await server.outputLines(/Using the demo tenant/, 1);
    await server.stop();
    expect(server.output()).not.toContain('Imported the demo tenant');
    expect(server.output()).toContain('Using the demo tenant "demo".');
    expect(server.output()).not.toContain('Demo tenant "demo" loaded.');
  });

  it('refuses to start with a wrong setting in one JSON log line naming it, never echoing a password', () => {
    const run = runToEnd({
      ...env,
      LOG_LEVEL: 'chatty',
      DATABASE_URL: 'postgres://ada:s3cret@db:5432/x y',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('');
    expect(fatalLines(run.stdout)).toStrictEqual([
      'Invalid configuration:\n' +
        '  DATABASE_URL="postgres://ada:***@db:5432/x y": must be a postgresql:// connection string (or libpq key=value pairs)\n' +
        '  LOG_LEVEL="chatty": must be one of fatal, error, warn, log, debug, verbose',
    ]);
  });

  it.each([
    [
      'a database that does not exist',
      () => ({ DATABASE_URL: missingDatabase() }),
      /^Start failed: PostgreSQL at [\w.]+:\d+ has no database "identity_missing_\w+": create it \(createdb -h [\w.]+ -p \d+ identity_missing_\w+\) or point DATABASE_URL at an existing one\.$/,
    ],
    [
      'a server that is not running',
      () => ({ DATABASE_URL: 'postgresql://ada:s3cret@127.0.0.1:1/identity' }),
      /^Start failed: Cannot reach PostgreSQL at 127\.0\.0\.1:1: is it running there\? Check DATABASE_URL\.$/,
    ],
  ])('explains %s in one line and exits 1', (_what, settings, line) => {
    const run = runToEnd({ ...env, ...settings() });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('s3cret');
    expect(fatalLines(run.stdout)).toHaveLength(1);
    expect(fatalLines(run.stdout)[0]).toMatch(line);
    expect(run.stdout + run.stderr).not.toMatch(/\bat .+\(.+:\d+:\d+\)/);
    expect(run.stdout + run.stderr).not.toContain('\u001b[');
  });

  it('fails fast on a port in use, with a hint to set PORT to one found free', async () => {
    const taken = await listen();
    // The port after it is taken too: the hint names a port found free.
    const next = await listen(taken.port + 1).catch(() => undefined);
    try {
      const run = runToEnd({ ...env, PORT: String(taken.port) });
      expect(run.code).toBe(1);
      const lines = fatalLines(run.stdout);
      expect(lines).toHaveLength(1);
      const suggested = /for example PORT=(\d+) npm start/.exec(lines[0]);
      expect(lines[0]).toBe(
        `Start failed: Port ${taken.port} is already in use by another process: set PORT to a free one (for example PORT=${suggested?.[1]} npm start).`,
      );
      const port = Number(suggested![1]);
      expect(port).toBeGreaterThan(taken.port + 1);
      const free = await listen(port);
      free.server.close();
      expect(run.stdout).not.toContain('successfully started');
    } finally {
      taken.server.close();
      next?.server.close();
    }
  });

  it('says it in a plain line on a terminal', () => {
    // script(1) gives the service a terminal of its own.
    const run = spawnSync(
      'script',
      ['-qec', `${process.execPath} dist/main.js`, '/dev/null'],
      {
        cwd: ROOT,
        env: { ...env, LOG_LEVEL: 'chatty' },
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(2);
    expect(run.stdout.replace(/\r\n/g, '\n')).toBe(
      'Invalid configuration:\n  LOG_LEVEL="chatty": must be one of fatal, error, warn, log, debug, verbose\n',
    );
  });
});

/** What shell blocks did, and each curl's answer, per block. */
interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** How many of the blocks ran to their end. */
  ended: number;
  /** Each block's answers, for the blocks that started. */
  answers: Answer[][];
}

/** A curl's request (method and path) and the status it was answered. */
interface Answer {
  request: string;
  status: number;
}

const ANSWERED = 'doc-example-answered';
const ENDED = 'doc-example-ended';

/**
 * Runs shell blocks of the documents one after the other in one bash, as a
 * reader pastes them into one terminal: in the repository, where
 * `npm run --silent cli` is the project's command line, with the service's
 * variables, so that it works on the service's database; `set -e -o
 * pipefail`; localhost:3000 the test's service. A curl function passes the
 * printed arguments on unchanged and adds only `-sS` (no progress meter) and
 * a line on standard error with the answer's status, so that what a block
 * prints, and keeps in its variables, is what the reader gets.
 */
async function runShell(
  blocks: string[],
  env: NodeJS.ProcessEnv,
): Promise<ShellRun> {
  const script = [
    'set -eo pipefail',
    `curl() { command curl -sS -w '%{stderr}\\n${ANSWERED} %{http_code} %{method} %{url_effective}\\n' "$@"; }`,
    ...blocks.flatMap((text) => [
      text.replaceAll('localhost:3000', `localhost:${env.PORT}`),
      `echo ${ENDED} >&2`,
    ]),
  ].join('\n');
  const bash = spawn('bash', ['-c', script], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  bash.stdout.on('data', (chunk) => (stdout += chunk));
  bash.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((done) =>
    bash.once('close', done),
  );
  const answers: Answer[][] = [[]];
  let ended = 0;
  for (const line of stderr.split('\n')) {
    const answer = new RegExp(`^${ANSWERED} (\\d{3}) (\\w+) (\\S+)$`).exec(
      line,
    );
    if (answer) {
      const url = new URL(answer[3]);
      answers[ended].push({
        request: `${answer[2]} ${url.pathname}${url.search}`,
        status: Number(answer[1]),
      });
    } else if (line === ENDED && ++ended < blocks.length) answers.push([]);
  }
  return { code, stdout, stderr, ended, answers };
}

/** The README's block that starts its webhook receiver. */
const startsReceiver = (block: ShellBlock) =>
  block.text.includes('scripts/webhook-receiver.js');

/** How many curl commands a block prints (its comment lines aside). */
const printedCurls = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .match(/\bcurl\s/g)?.length ?? 0;

/**
 * A tenant file the reader saves from the document (`acme.json`: the JSON
 * block the README introduces by that name) saved in `dir`, and the block's
 * import of it naming it there: the command line reads a file from the
 * repository, where the test does not write.
 */
function withSavedFiles(file: string, text: string, dir: string): string {
  return text.replace(
    /(npm run --silent cli -- import )(\S+\.json)/g,
    (_line, command: string, name: string) => {
      const introduced = `\`${name}\`:\n\n\`\`\`json\n`;
      const document = readFileSync(file, 'utf8');
      const at = document.indexOf(introduced);
      const saved =
        at < 0
          ? null
          : /^([\s\S]*?)\n```/.exec(document.slice(at + introduced.length));
      if (!saved) throw new Error(`${file} gives no JSON block for ${name}`);
      writeFileSync(join(dir, name), saved[1]);
      return command + join(dir, name);
    },
  );
}

/**
 * The answer with the status docs/api.md's tables of routes give its
 * request (the first after a "; " in the route's row; the administration
 * API's paths there are below /{tenant}/api/admin/v1), the most specific
 * route first. A request no row gives a status for is documented as a
 * success: its own status when it is one, else "2xx".
 */
function asDocumented({ request, status }: Answer): {
  request: string;
  status: number | string;
} {
  const [method, target] = request.split(' ');
  const path = target.split('?')[0];
  const api = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  const routes = [...api.matchAll(/^\| (\w+) \| `([^`]+)` \| (.*) \|$/gm)]
    .map(([, verb, template, said]) => ({
      verb,
      template: (template.startsWith('/{tenant}/')
        ? template
        : `/{tenant}/api/admin/v1${template}`
      ).split('?')[0],
      said,
    }))
    .filter(
      (route) =>
        route.verb === method &&
        new RegExp(
          `^${route.template
            .split(/\{\w+\}/)
            .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
            .join('[^/]+')}$`,
        ).test(path),
    )
    .sort(
      (a, b) =>
        (a.template.match(/\{/g)?.length ?? 0) -
        (b.template.match(/\{/g)?.length ?? 0),
    );
  const documented = /; ([1-5]\d\d)\b/.exec(routes[0]?.said ?? '')?.[1];
  if (documented) return { request, status: Number(documented) };
  return { request, status: status >= 200 && status < 300 ? status : '2xx' };
}

/** The service started and left to end by itself (it refuses to start). */
function runToEnd(env: NodeJS.ProcessEnv) {
  const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The messages of the fatal (level 60) JSON log lines. */
const fatalLines = (stdout: string) =>
  logLines(stdout)
    .filter((entry) => entry.level === 60)
    .map((entry) => entry.msg as string);

function missingDatabase(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/identity_missing_${process.pid}`;
  return url.toString();
}

function listen(port = 0): Promise<{ server: NetServer; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    );
  });
}
