import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../config/app-config';
import type { IssuerConfig } from './access.repository';
import { IssuerKeys, keySetBytes, TokenRejected } from './issuer-keys';

/** A JWKS of about `bytes` bytes: keys of another id than the token's. */
const jwks = (bytes: number) =>
  JSON.stringify({
    keys: Array.from({ length: Math.floor(bytes / 1000) }, (_, i) => ({
      kty: 'oct',
      kid: `k${i}`,
      k: 'A'.repeat(960),
    })),
  });
const DOCUMENT = jwks(900_000);
const BYTES = Buffer.byteLength(DOCUMENT);

// A token of a key id no JWKS holds: verifying it fetches the key set.
const part = (value: object) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');
const TOKEN = `${part({ alg: 'HS256', kid: 'none' })}.${part({ iss: 'i' })}.c2ln`;

describe('IssuerKeys', () => {
  let server: Server;
  let port: number;
  const fetched: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      fetched.push(req.url!);
      res.end(DOCUMENT);
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  it('keeps the key sets within JWKS_CACHE_MB, however large their documents, the least recently used going first', async () => {
    const budget = 6 * 1024 * 1024;
    const keys = new IssuerKeys({
      jwksTimeoutMs: 3000,
      jwksCooldownMs: 30_000,
      jwksCacheBytes: budget,
      egressPrivateNetworkTenants: ['acme'],
    } as unknown as AppConfig);
    const issuer = (i: number) =>
      ({
        issuer: `https://issuer-${i}.example`,
        jwksUri: `http://127.0.0.1:${port}/jwks/${i}`,
      }) as IssuerConfig;
    const verify = (i: number) =>
      keys
        .verify('acme', issuer(i), TOKEN, { algorithms: ['HS256'] })
        .catch((e: unknown) => e);
    const entry = keySetBytes(`private ${issuer(0).jwksUri!}`, BYTES);
    for (let i = 0; i < 5; i++)
      expect(await verify(i)).toBeInstanceOf(TokenRejected);
    expect(keys.keySetsBytes).toBe(Math.floor(budget / entry) * entry);
    expect(keys.keySetsBytes).toBeLessThanOrEqual(budget);
    // The latest two are kept; the first was dropped and is fetched again.
    fetched.length = 0;
    await verify(4);
    await verify(3);
    await verify(0);
    expect(fetched).toStrictEqual(['/jwks/0']);
  });
});
