import {
  ChildProcessWithoutNullStreams,
  spawn,
  spawnSync,
} from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILT_SERVER_PRIVATE_NETWORK_TENANTS } from './egress';
import {
  createTestDatabase,
  serverDataDir,
  TEST_SECRET_KEYS,
  type TestDatabase,
} from './test-database';

const ROOT = resolve(__dirname, '..', '..');
/** The Node.js flags the service is deployed with (npm start, the image). */
const { SERVICE_NODE_FLAGS } = require('../../scripts/service-flags') as {
  SERVICE_NODE_FLAGS: string[];
};

/** The built server (`dist/main.js`) in its own process, as operators run it (its Node.js flags too). */
export interface Server {
  output: () => string;
  /** Waits, 5 s at most, until the output holds `count` lines matching `pattern`. */
  outputLines(pattern: RegExp, count: number): Promise<void>;
  /** Resolves with how the process ended: its exit code or its signal. */
  ended: () => Promise<number | NodeJS.Signals | null>;
  /** Sends SIGTERM and waits for the process to end. */
  stop(): Promise<void>;
  /** Kills the process at once (SIGKILL: no shutdown of any kind) and waits for it to end. */
  kill(): Promise<void>;
}

export function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [...SERVICE_NODE_FLAGS, join(ROOT, 'dist', 'main.js')],
    { env, cwd: ROOT },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | NodeJS.Signals | null>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal)),
  );
  const server = {
    output: () => output,
    outputLines: async (pattern: RegExp, count: number) => {
      for (let waited = 0; waited < 5000; waited += 50) {
        const lines = output.split('\n').filter((line) => pattern.test(line));
        if (lines.length >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    ended: () => exited,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
  return new Promise((ready, fail) => {
    const timer = setInterval(() => {
      if (/Listening on http:\/\/localhost:\d+/.test(output)) {
        clearInterval(timer);
        setTimeout(() => ready(server), 100);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      fail(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Environment for a server on a test database, on a free-looking port, with
 * the demo tenant (which the service loads by default on the embedded
 * database only), and the tests' tenants with loopback issuers, providers
 * and receivers listed for private networks.
 */
export function serverEnvironment(
  config: { databaseUrl?: string },
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  // Below the ephemeral range (32768 and up on Linux), where any outgoing
  // connection of the machine may hold a port the server then cannot bind.
  const port = String(20000 + Math.floor(Math.random() * 12000));
  const place = config.databaseUrl
    ? { DATABASE_URL: config.databaseUrl, SECRET_KEYS: TEST_SECRET_KEYS }
    : { DATA_DIR: dataDir };
  return {
    PATH: process.env.PATH,
    PORT: port,
    LOG_LEVEL: 'log',
    SEED_DEMO: 'true',
    EGRESS_PRIVATE_NETWORK_TENANTS: BUILT_SERVER_PRIVATE_NETWORK_TENANTS,
    ...place,
    ...extra,
  };
}

/** The JSON lines of a server's output: what it logged. */
export const logLines = (output: string): Record<string, any>[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

/**
 * The built server on a migrated database of its own (a data directory
 * named from `prefix` on the embedded one), for `work`, given the server and
 * its base URL; stopped, and its database dropped, whatever `work` does.
 * Resolves with the server, whose output outlives it.
 */
export async function withServer(
  prefix: string,
  extra: NodeJS.ProcessEnv,
  work: (server: Server, base: string) => Promise<void>,
): Promise<Server> {
  const db = await createTestDatabase();
  try {
    const env = serverEnvironment(
      db.config,
      await serverDataDir(prefix),
      extra,
    );
    const server = await startServer(env);
    try {
      await work(server, `http://localhost:${env.PORT}`);
    } finally {
      await server.stop();
    }
    return server;
  } finally {
    await db.drop();
  }
}

/**
 * Instances of the built server sharing one PostgreSQL database of their
 * own, with the tenant file imported by the built command line, for the
 * tests of a describe block: `start` starts one more (its environment with
 * `extra`); after the tests every one is stopped and the database dropped.
 */
export function useServers(
  tenantFile: { tenant: { id: string } },
  extra: NodeJS.ProcessEnv,
) {
  let db: TestDatabase;
  const servers: Server[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    const file = join(
      mkdtempSync(join(tmpdir(), `identity-${tenantFile.tenant.id}-`)),
      `${tenantFile.tenant.id}.json`,
    );
    writeFileSync(file, JSON.stringify(tenantFile));
    const imported = spawnSync(
      process.execPath,
      [join(ROOT, 'dist', 'cli.js'), 'import', file],
      {
        env: { PATH: process.env.PATH, DATABASE_URL: db.config.databaseUrl },
        encoding: 'utf8',
      },
    );
    expect(imported.status).toBe(0);
  });
  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    await db?.drop();
  });
  const start = async (): Promise<{ server: Server; base: string }> => {
    const env = serverEnvironment(db.config, '', extra);
    const server = await startServer(env);
    servers.push(server);
    return { server, base: `http://localhost:${env.PORT}` };
  };
  return { start };
}
