import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serverEnvironment, startServer } from './support/server';
import { createTestDatabase, TestDatabase } from './support/test-database';

// `npm start` as a new user meets it: the built server on an empty
// database loads the demo tenant and prints a curl line that works.
const ROOT = resolve(__dirname, '..');

describe('starting the service', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    db = await createTestDatabase();
    env = serverEnvironment(
      db.config,
      join(mkdtempSync(join(tmpdir(), 'identity-start-')), 'pglite'),
    );
  });
  afterAll(() => db.drop());

  it('loads the demo tenant on first start and prints a working curl line', async () => {
    const server = await startServer(env);
    try {
      expect(server.output()).toMatch(/Imported the demo tenant \\?"demo/);
      const curl = /curl -H "Authorization: Bearer (\S+)" (\S+)/.exec(
        server.output(),
      );
      expect(curl).not.toBeNull();
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
    } finally {
      await server.stop();
    }
  });

  it('answers every curl example of the README as documented', async () => {
    const server = await startServer(env);
    try {
      // Every example without shell variables, in the README's order.
      const examples = readFileSync(join(ROOT, 'README.md'), 'utf8')
        .split('\n')
        .filter(
          (line) =>
            /^curl .*http:\/\/localhost:3000\//.test(line) &&
            !line.includes('$'),
        );
      expect(examples.length).toBeGreaterThanOrEqual(14);
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
    } finally {
      await server.stop();
    }
  });

  it('does not import the demo again on the next start', async () => {
    const server = await startServer(env);
    await server.stop();
    expect(server.output()).not.toContain('Imported the demo tenant');
    expect(server.output()).toContain('Demo tenant "demo" loaded.');
  });

  it('refuses to start with a wrong setting, naming it', async () => {
    await expect(startServer({ ...env, LOG_LEVEL: 'chatty' })).rejects.toThrow(
      'LOG_LEVEL="chatty": must be one of fatal, error, warn, log, debug, verbose',
    );
  });
});
