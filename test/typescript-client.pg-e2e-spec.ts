import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import {
  createIdentityClient,
  ProblemError,
  verifyWebhook,
  WebhookVerificationError,
  type ClientOptions,
  type Fetch,
} from '../clients/typescript/src';
import { Mirror } from '../clients/typescript/examples/mirror';
import { serverEnvironment, startServer, type Server } from './support/server';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import { useTestApp } from './support/test-app';
import { until } from './support/until';
import { fastWebhooks } from './support/webhook-receiver';

const execFileAsync = promisify(execFile);

// The client's behaviour does not depend on the database: it runs once, on
// PostgreSQL, where the service starts in a second.

const ROOT = join(__dirname, '..');
const CLIENT = join(ROOT, 'clients', 'typescript');
const TENANT = 'demo';
const ALICE = 'demo-alice-access-token';
const READER = 'demo-reader-app-token';
const CONSOLE = 'demo-console-app-token';

/** The demo tenant, with an app token that administers it. */
const demo = () => {
  const file = JSON.parse(
    readFileSync(join(ROOT, 'prisma', 'demo-tenant.json'), 'utf8'),
  );
  file.tokens.push({
    token: CONSOLE,
    type: 'app',
    appId: 'console',
    scopes: ['tenant:admin'],
  });
  return file;
};

/** Short times, so that a delivery follows its change at once. */
const FAST = fastWebhooks({ timeoutMs: 1000, leaseMs: 2000 });

interface Exchange {
  method: string;
  path: string;
  status: number;
  ifNoneMatch: string | null;
  ifMatch: string | null;
  etag: string | null;
}

/** A client whose every exchange with the service is recorded. */
function recordedClient(
  options: Omit<ClientOptions, 'fetch'>,
): ReturnType<typeof createIdentityClient> & { sent: Exchange[] } {
  const sent: Exchange[] = [];
  const fetch: Fetch = async (request) => {
    const response = await globalThis.fetch(request);
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname + url.search,
      status: response.status,
      ifNoneMatch: request.headers.get('If-None-Match'),
      ifMatch: request.headers.get('If-Match'),
      etag: response.headers.get('ETag'),
    });
    return response;
  };
  return Object.assign(createIdentityClient({ ...options, fetch }), { sent });
}

/** Runs a program to its end (without blocking the service of this process); its output. */
async function run(command: string, args: string[], cwd: string) {
  const env = {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
  };
  try {
    const { stdout } = await execFileAsync(command, args, {
      cwd,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`,
    );
  }
}

describe('the TypeScript client (clients/typescript)', () => {
  const t = useTestApp({ tenants: [demo()], config: { webhooks: FAST } });
  let baseUrl: string;
  let work: string;
  // The slow parts run in other processes while the tests below talk to the
  // service: the types generated from the served document, and npm pack
  // (which builds the package).
  let generated: Promise<string>;
  let packing: Promise<string>;
  // The built server with the demo and a budget of two requests a second,
  // in a process of its own: a second app started in this process makes the
  // first one's requests fail (401 while both run, 503 once it closed).
  let limited: Promise<string>;
  let limitedServer: Promise<{
    server: Server;
    db: TestDatabase;
    port?: string;
  }>;
  beforeAll(async () => {
    limitedServer = (async () => {
      const db = await createTestDatabase();
      const env = serverEnvironment(db.config, '', {
        RATE_LIMIT: '2',
        RATE_LIMIT_WINDOW_SECONDS: '1',
      });
      return { server: await startServer(env), db, port: env.PORT };
    })();
    limited = limitedServer.then(({ port }) => `http://127.0.0.1:${port}`);
    baseUrl = `http://127.0.0.1:${await t.listen()}`;
    work = mkdtempSync(join(tmpdir(), 'identity-client-'));
    const document = join(work, 'openapi.json');
    writeFileSync(
      document,
      (await t.http().get('/openapi.json').expect(200)).text,
    );
    const output = join(work, 'schema.ts');
    generated = run(
      process.execPath,
      [
        join(CLIENT, 'scripts', 'generate.mjs'),
        '--document',
        document,
        '--output',
        output,
      ],
      ROOT,
    ).then(() => output);
    packing = run(
      'npm',
      ['pack', '--json', '--silent', '--pack-destination', work],
      CLIENT,
    );
    // Awaited by their tests; a failure is theirs, not an unhandled rejection.
    for (const job of [generated, packing, limited]) job.catch(() => undefined);
  });
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    const { server, db } = await limitedServer;
    await server.stop();
    await db.drop();
  });

  /** A tenant of its own, a copy of the demo's: its id and its tokens. */
  async function demoCopy() {
    const tenant = await t.newTenant(demo());
    return {
      tenant: tenant.id,
      token: (secret: string) => tenant.token(secret),
    };
  }

  it('declares the dependencies the root installs and tests it with', () => {
    const manifest = (folder: string) =>
      JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const root = manifest(ROOT);
    const installed = { ...root.dependencies, ...root.devDependencies };
    const client = manifest(CLIENT);
    for (const [name, range] of Object.entries({
      ...client.dependencies,
      ...client.devDependencies,
    }))
      expect([name, installed[name]]).toStrictEqual([name, range]);
  });

  it('revalidates a GET with If-None-Match: a 304 answers the body it holds', async () => {
    const { tenant, token } = await demoCopy();
    const api = recordedClient({ baseUrl, token: token(ALICE) });
    const params = { path: { tenant } };
    const first = await api.GET('/{tenant}/api/identity/v1', { params });
    const again = await api.GET('/{tenant}/api/identity/v1', { params });
    expect(first.data.displayName).toBe('Alice Martin');
    expect(again.data).toStrictEqual(first.data);
    expect(again.response.status).toBe(200);
    const etag = first.response.headers.get('ETag');
    expect(again.response.headers.get('ETag')).toBe(etag);
    expect(api.sent).toStrictEqual([
      expect.objectContaining({ status: 200, ifNoneMatch: null, etag }),
      expect.objectContaining({ status: 304, ifNoneMatch: etag, etag }),
    ]);
  });

  it('writes with If-Match from the ETag it saw; a stale one is a typed 412, a refused field a typed 400', async () => {
    const { tenant, token } = await demoCopy();
    const params = { path: { tenant } };
    const api = recordedClient({ baseUrl, token: token(ALICE) });
    const other = createIdentityClient({ baseUrl, token: token(ALICE) });
    const { response } = await api.GET('/{tenant}/api/identity/v1', {
      params,
    });
    const seen = response.headers.get('ETag');
    await other.PUT('/{tenant}/api/identity/v1', {
      params,
      body: { displayName: 'Alice by another client' },
    });

    const stale = await api
      .PUT('/{tenant}/api/identity/v1', {
        params,
        body: { displayName: 'Alice M.' },
      })
      .catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(ProblemError);
    expect(stale).toMatchObject({
      status: 412,
      slug: 'precondition-failed',
      type: 'urn:problem:identity:precondition-failed',
      title: 'Precondition failed',
      detail:
        'If-Match does not match the current ETag of the identity; fetch it again and retry.',
      instance: `/${tenant}/api/identity/v1`,
      errors: [],
    });
    expect(api.sent.at(-1)).toMatchObject({ method: 'PUT', ifMatch: seen });

    // Read again (revalidated: the copy it held is old), then write.
    const fresh = await api.GET('/{tenant}/api/identity/v1', { params });
    expect(fresh.data.displayName).toBe('Alice by another client');
    const written = await api.PUT('/{tenant}/api/identity/v1', {
      params,
      body: { displayName: 'Alice M.' },
    });
    expect(written.data.displayName).toBe('Alice M.');
    const current = fresh.response.headers.get('ETag');
    expect(api.sent.slice(-2)).toStrictEqual([
      expect.objectContaining({
        method: 'GET',
        status: 200,
        ifNoneMatch: seen,
      }),
      expect.objectContaining({ method: 'PUT', status: 200, ifMatch: current }),
    ]);

    const refused = await api
      .PUT('/{tenant}/api/identity/v1', { params, body: { locality: 'en' } })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 400,
      slug: 'invalid-request',
      errors: [
        {
          field: 'locality',
          message:
            'must be a locality of the form xx-XX (ISO 639-1 language, ISO 3166-1 country)',
        },
      ],
    });
  });

  it('follows pages through Link: rel="next"', async () => {
    const { tenant, token } = await demoCopy();
    const api = recordedClient({ baseUrl, token: token(ALICE) });
    const params = { path: { tenant } };
    const friends = [];
    for await (const friend of api.pages('/{tenant}/api/identity/v1/friends', {
      params: { ...params, query: { limit: 1 } },
    }))
      friends.push(friend.identityId);
    expect(friends).toStrictEqual(['bob', 'zoe']);
    expect(api.sent.map((e) => e.path)).toStrictEqual([
      `/${tenant}/api/identity/v1/friends?limit=1`,
      expect.stringMatching(
        new RegExp(`^/${tenant}/api/identity/v1/friends\\?limit=1&cursor=.+`),
      ),
    ]);
  });

  it('retries a 429 after Retry-After, within its bound', async () => {
    const base = await limited;
    const params = { path: { tenant: TENANT } };
    const patient = recordedClient({ baseUrl: base, token: ALICE });
    const hasty = createIdentityClient({
      baseUrl: base,
      token: ALICE,
      retry: { maxWaitMs: 0 },
    });
    await patient.GET('/{tenant}/api/identity/v1/roles', { params });
    await patient.GET('/{tenant}/api/identity/v1/roles', { params });
    await expect(
      hasty.GET('/{tenant}/api/identity/v1/roles', { params }),
    ).rejects.toMatchObject({
      status: 429,
      slug: 'too-many-requests',
      retryAfterSeconds: 1,
    });
    const { data } = await patient.GET('/{tenant}/api/identity/v1/roles', {
      params,
    });
    expect(data).toStrictEqual([{ name: 'admin' }, { name: 'staff' }]);
    // Revalidated, the retry too.
    expect(patient.sent.map((e) => e.status)).toStrictEqual([
      200, 304, 429, 304,
    ]);
  });

  it('verifies a webhook with its secret only, and types its payload', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = JSON.stringify({
      type: 'identity.updated',
      timestamp: '2026-11-25T08:58:24.021Z',
      data: {
        eventId: '6',
        tenantId: TENANT,
        identityId: 'bob',
        fields: ['displayName'],
        etag: '"P--ADxVArETJgePIpw4NAZ"',
      },
    });
    const signed = (key: string) => ({
      'webhook-id': 'evt_6',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': new Webhook(key).sign('evt_6', new Date(), body),
    });
    const event = verifyWebhook(secret, signed(secret), Buffer.from(body));
    expect(event).toStrictEqual(JSON.parse(body));
    if (event.type === 'identity.updated')
      expect(event.data.fields).toStrictEqual(['displayName']);
    const other = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
    expect(() =>
      verifyWebhook(secret, new Headers(signed(other)), body),
    ).toThrow(WebhookVerificationError);
  });

  it('keeps the example mirror (examples/mirror.ts) fresh through webhooks', async () => {
    const { tenant, token } = await demoCopy();
    const mirror = await Mirror.start({
      baseUrl,
      tenant,
      readToken: token(READER),
      adminToken: token(CONSOLE),
    });
    try {
      const names = () =>
        Object.fromEntries(
          [...mirror.identities].map(([id, { identity }]) => [
            id,
            identity.displayName ?? null,
          ]),
        );
      const holds = (expected: object) =>
        until(() => JSON.stringify(names()) === JSON.stringify(expected), {
          what: 'the mirror',
          context: () => JSON.stringify(names()),
        });
      // The replay fills it in the change log's order.
      await holds({
        alice: 'Alice Martin',
        bob: 'Bob Lee',
        zoe: 'Zoë Ångström',
        dave: 'Dave Disabled',
        erin: null,
      });
      const bob = createIdentityClient({
        baseUrl,
        token: token('demo-bob-access-token'),
      });
      await bob.PUT('/{tenant}/api/identity/v1', {
        params: { path: { tenant } },
        body: { displayName: 'Robert Lee' },
      });
      const deleter = createIdentityClient({
        baseUrl,
        token: token('demo-admin-app-token'),
      });
      await deleter.DELETE('/{tenant}/api/identity/v1/{id}', {
        params: { path: { tenant, id: 'erin' } },
      });
      await holds({
        alice: 'Alice Martin',
        bob: 'Robert Lee',
        zoe: 'Zoë Ångström',
        dave: 'Dave Disabled',
      });
    } finally {
      await mirror.stop();
    }
  });

  it('has the types the served OpenAPI document generates (npm run client:generate)', async () => {
    const committed = readFileSync(join(CLIENT, 'src', 'schema.ts'), 'utf8');
    const fresh = readFileSync(await generated, 'utf8');
    if (committed !== fresh) {
      const [a, b] = [committed.split('\n'), fresh.split('\n')];
      const line = a.findIndex((text, i) => text !== b[i]);
      throw new Error(
        `clients/typescript/src/schema.ts differs from the served document's types from line ${line + 1}:\n` +
          `  committed: ${a[line]}\n  generated: ${b[line]}\n` +
          'Run `npm run client:generate`, and commit the change with the code that made it.',
      );
    }
  });

  it('packs into a tarball that a new project installs and calls the service with in five lines', async () => {
    const packed = JSON.parse(await packing)[0];
    expect(packed.name).toBe('@identity-service/client');
    const files = packed.files.map((f: { path: string }) => f.path).sort();
    const modules = [
      'client',
      'conditional',
      'index',
      'pages',
      'problem',
      'retry',
      'schema',
      'transport',
      'webhooks',
    ];
    expect(files).toStrictEqual(
      [
        'README.md',
        ...modules.flatMap((m) => [`dist/${m}.d.ts`, `dist/${m}.js`]),
        'package.json',
      ].sort(),
    );

    // The project: the tarball as npm lays it out, its dependencies the
    // root's copies (no registry in a test).
    const project = join(work, 'project');
    const modulesDir = join(project, 'node_modules');
    mkdirSync(join(modulesDir, '@identity-service'), { recursive: true });
    await run(
      'tar',
      [
        '-xzf',
        join(work, packed.filename),
        '-C',
        join(modulesDir, '@identity-service'),
      ],
      work,
    );
    renameSync(
      join(modulesDir, '@identity-service', 'package'),
      join(modulesDir, '@identity-service', 'client'),
    );
    const manifest = JSON.parse(
      readFileSync(
        join(modulesDir, '@identity-service', 'client', 'package.json'),
        'utf8',
      ),
    );
    for (const name of Object.keys(manifest.dependencies))
      symlinkSync(join(ROOT, 'node_modules', name), join(modulesDir, name));
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        type: 'module',
        dependencies: { '@identity-service/client': packed.filename },
      }),
    );
    const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8');
    const [, lines] = /## Five lines[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)!;
    expect(lines.trimEnd().split('\n')).toHaveLength(5);
    writeFileSync(
      join(project, 'main.ts'),
      lines.replace('http://localhost:3000', baseUrl),
    );

    await run(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2022',
        '--lib',
        'es2023,dom',
        '--skipLibCheck',
        'main.ts',
      ],
      project,
    );
    expect(await run(process.execPath, ['main.ts'], project)).toBe(
      'Alice Martin\n',
    );
  });
});
