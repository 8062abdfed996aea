import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Server, serverEnvironment, startServer } from './support/server';

// `npm start` on the embedded database with the command line beside it, as
// a developer works: the service owns the data directory and serves it; the
// command line's changes reach the running service at once, and nothing is
// lost when both stop.
const ROOT = resolve(__dirname, '..');
const EXAMPLE = join(ROOT, 'test', 'fixtures', 'example-tenant.json');

describe('the embedded database shared by the service and the command line', () => {
  const dataDir = join(
    mkdtempSync(join(tmpdir(), 'identity-embedded-')),
    'data',
  );
  const env = serverEnvironment({}, dataDir);
  const base = `http://localhost:${env.PORT}`;
  let server: Server;

  const cli = (...args: string[]) => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), ...args],
      {
        env: { PATH: process.env.PATH, DATA_DIR: dataDir },
        encoding: 'utf8',
      },
    );
    return {
      code: r.status,
      out: r.stdout,
      err: r.stderr.replace(/^Database: .*\n/, ''),
    };
  };
  const get = (path: string, token: string) =>
    fetch(`${base}${path}`, {
      headers: { Authorization: `Bearer ${token}` },
      redirect: 'manual',
    });

  beforeAll(async () => {
    server = await startServer(env);
  });
  afterAll(() => server.stop());

  it('listens on loopback only when HOST is unset, and says so', async () => {
    expect(server.output()).toContain(
      `Listening on http://localhost:${env.PORT} (bound to 127.0.0.1:${env.PORT})`,
    );
    // Reachable on loopback; on any other address of the host it is not there.
    expect((await get('/health/live', '')).status).toBe(200);
  });

  it('belongs to one service: a second one refuses, naming the first', async () => {
    const pid = /"pid":(\d+)/.exec(server.output())![1];
    const second = await startServer({
      ...env,
      PORT: String(Number(env.PORT) + 1),
    }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(second).toContain(
      `Start failed: The embedded database ${dataDir} is in use by the service (PID ${pid}, http://localhost:${env.PORT}). Stop it first, or set DATA_DIR to another directory.`,
    );
  });

  it('takes tokens, imports and merges from the command line at once', async () => {
    const token = cli(
      'token',
      'create',
      '--tenant',
      'demo',
      '--identity',
      'bob',
    );
    expect(token).toMatchObject({ code: 0, err: '' });
    const bob = await get('/demo/api/identity/v1', token.out.trim());
    expect([bob.status, (await bob.json()).identityId]).toStrictEqual([
      200,
      'bob',
    ]);

    expect(cli('import', EXAMPLE)).toMatchObject({ code: 0 });
    const ada = 'example-ada-access-token-0001';
    expect((await get('/example/api/identity/v1', ada)).status).toBe(200);

    expect(
      cli('merge', '--tenant', 'example', '--into', 'ada', '--from', 'grace'),
    ).toMatchObject({ code: 0, out: 'Merged "grace" into "ada".\n' });
    const moved = await get('/example/api/identity/v1/grace', ada);
    expect([moved.status, moved.headers.get('location')]).toStrictEqual([
      308,
      '/example/api/identity/v1/ada',
    ]);
  });

  it("shows the service's changes to a command that follows the change log", async () => {
    const follower: ChildProcess = spawn(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), 'events', '--tenant', 'demo', '--follow'],
      { env: { PATH: process.env.PATH, DATA_DIR: dataDir } },
    );
    let printed = '';
    follower.stdout!.on('data', (chunk) => (printed += chunk));
    try {
      const res = await fetch(`${base}/demo/api/identity/v1`, {
        method: 'PUT',
        headers: {
          Authorization: 'Bearer demo-zoe-access-token',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ displayName: 'Zoë from the service' }),
      });
      expect(res.status).toBe(200);
      const update = await eventually(() =>
        printed
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
          .find((e) => e.identityId === 'zoe' && e.type === 'updated'),
      );
      expect(update).toMatchObject({ fields: ['displayName'] });
    } finally {
      follower.kill('SIGTERM');
    }
  });

  it('keeps everything after the service stops, and serves it again', async () => {
    const token = cli(
      'token',
      'create',
      '--tenant',
      'demo',
      '--identity',
      'erin',
    ).out.trim();
    await server.stop();
    // With no service running, the command line opens the directory itself.
    const tokens = cli('token', 'list', '--tenant', 'demo').out;
    expect(tokens).toContain('"owner":"erin"');
    expect(tokens).toContain('"owner":"bob"');
    expect(
      JSON.parse(cli('export', 'example').out).identities.map(
        (i: { identityId: string }) => i.identityId,
      ),
    ).toStrictEqual(['ada', 'charles', 'mary']);
    server = await startServer(env);
    const erin = await get('/demo/api/identity/v1', token);
    expect(erin.status).toBe(200);
    const zoe = await get('/demo/api/identity/v1', 'demo-zoe-access-token');
    expect((await zoe.json()).displayName).toBe('Zoë from the service');
  });
});

/** Polls `read` until it returns something (the follower prints when it polls). */
async function eventually<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('not seen within 20 s');
}
