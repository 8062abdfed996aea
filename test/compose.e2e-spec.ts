import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// docker-compose.yml as an operator runs it: `docker compose up` must not
// put the service, and least of all the demo's published tokens, on the
// network. CI checks the file's syntax with `docker-compose config`.
const COMPOSE = readFileSync(
  join(__dirname, '..', 'docker-compose.yml'),
  'utf8',
);

/** The services of the file, each with its lines. */
const services = Object.fromEntries(
  [
    ...COMPOSE.split(/^services:\n/m)[1]
      .split(/^\S/m)[0]
      .matchAll(/^ {2}(\w[\w-]*):\n((?: {4}.*\n|\s*\n)*)/gm),
  ].map(([, name, body]) => [name, body]),
);

describe('docker-compose.yml', () => {
  it('publishes every port on loopback only', () => {
    const published = [...COMPOSE.matchAll(/^\s+- "([^"]*:\d+)"\s*$/gm)].map(
      ([, port]) => port,
    );
    expect(published).toStrictEqual(['127.0.0.1:3000:3000']);
  });

  it('loads the demo tenant only in the demo profile', () => {
    expect(COMPOSE).not.toMatch(/SEED_DEMO/);
    const withDemo = Object.entries(services).filter(([, body]) =>
      body.includes('demo-tenant.json'),
    );
    expect(withDemo.map(([name]) => name)).toStrictEqual(['demo']);
    expect(services.demo).toMatch(/^ {4}profiles: \["demo"\]$/m);
    expect(Object.keys(services)).toStrictEqual([
      'postgres',
      'redis',
      'identity',
      'demo',
    ]);
  });
});
