import type { LookupAddress, LookupOptions } from 'node:dns';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  fetchFromIssuer,
  guardedLookup,
  IssuerFetchError,
  resolver,
} from './issuer-documents';

// What names resolve to is simulated: no test connects anywhere but loopback.
const real = resolver.lookup;
afterEach(() => {
  resolver.lookup = real;
});

/** A resolver that answers every name with `addresses`, recording the names asked. */
function resolveTo(addresses: string[], asked: string[] = []) {
  resolver.lookup = ((
    hostname: string,
    _options: LookupOptions,
    callback: (error: null, found: LookupAddress[]) => void,
  ) => {
    asked.push(hostname);
    callback(
      null,
      addresses.map((address) => ({
        address,
        family: address.includes(':') ? 6 : 4,
      })),
    );
  }) as unknown as typeof resolver.lookup;
  return asked;
}

const lookUp = (options: LookupOptions) =>
  new Promise<{ code?: string; result?: unknown }>((done) =>
    guardedLookup('issuer.localhost', options, (error, address, family) =>
      done(
        error
          ? { code: error.code }
          : { result: options.all ? address : [address, family] },
      ),
    ),
  );

describe('guardedLookup', () => {
  it.each([
    [['169.254.169.254']],
    [['127.0.0.1', '169.254.169.254']],
    [['::ffff:169.254.169.254']],
    [['::ffff:a9fe:a9fe']],
    [['64:ff9b::a9fe:a9fe']],
    [['fe80::1%eth0']],
    [['FE80::1']],
    [['fd00:ec2::254']],
    [['100.100.100.200']],
    [[]],
  ])('refuses a name that resolves to %j', async (addresses) => {
    resolveTo(addresses);
    expect(await lookUp({})).toStrictEqual({ code: 'EREFUSEDADDRESS' });
    expect(await lookUp({ all: true })).toStrictEqual({
      code: 'EREFUSEDADDRESS',
    });
  });

  it('passes a loopback address on, one or all as asked', async () => {
    resolveTo(['127.0.0.1', '::1']);
    expect(await lookUp({})).toStrictEqual({ result: ['127.0.0.1', 4] });
    expect(await lookUp({ all: true })).toStrictEqual({
      result: [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
    });
  });
});

describe('fetchFromIssuer', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('{"keys":[]}'));
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  const get = (url: string) =>
    fetchFromIssuer(url, url, { signal: AbortSignal.timeout(2000) });

  it('resolves the names it connects to through the guard', async () => {
    const asked = resolveTo(['127.0.0.1']);
    const res = await get(`http://issuer.localhost:${port}/jwks`);
    expect([res.status, await res.text()]).toStrictEqual([200, '{"keys":[]}']);
    expect(asked).toStrictEqual(['issuer.localhost']);
  });

  it('checks the URL again before any connection', async () => {
    const asked = resolveTo(['127.0.0.1']);
    const error = await get('http://[::ffff:a9fe:a9fe]/latest').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IssuerFetchError);
    expect((error as Error).message).toBe(
      'http://[::ffff:a9fe:a9fe]/latest: must not name a link-local address or a cloud metadata service',
    );
    expect(asked).toStrictEqual([]);
  });
});
