import type { LookupAddress, LookupOptions } from 'node:dns';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressLookup } from '../common/validation/egress-agent';
import {
  fetchFromIssuer,
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

const lookUp = (options: LookupOptions, allowPrivate = true) =>
  new Promise<{ code?: string; result?: unknown }>((done) =>
    egressLookup(allowPrivate)(
      'issuer.localhost',
      options,
      (error, address, family) =>
        done(
          error
            ? { code: error.code }
            : { result: options.all ? address : [address, family] },
        ),
    ),
  );

describe('egressLookup', () => {
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
    [['0.0.0.0']],
    [['::']],
    [['::ffff:0.0.0.0']],
    [['224.0.0.1']],
    [['ff02::1']],
    [['255.255.255.255']],
    [[]],
  ])('refuses a name that resolves to %j, whoever asks', async (addresses) => {
    resolveTo(addresses);
    expect(await lookUp({})).toStrictEqual({ code: 'EREFUSEDADDRESS' });
    expect(await lookUp({ all: true })).toStrictEqual({
      code: 'EREFUSEDADDRESS',
    });
  });

  it.each([
    [['127.0.0.1']],
    [['::1']],
    [['10.0.0.1']],
    [['8.8.8.8', '172.16.0.1']],
    [['192.168.1.1']],
    [['100.64.0.1']],
    [['fc00::1']],
    [['fd12:3456::1']],
    [['::ffff:10.0.0.1']],
    [['::ffff:7f00:1']],
    [['64:ff9b::10.0.0.1']],
    [['2002:a00:1::1']],
  ])(
    'refuses a name that resolves to %j for a tenant not listed',
    async (addresses) => {
      resolveTo(addresses);
      expect(await lookUp({}, false)).toStrictEqual({
        code: 'EREFUSEDADDRESS',
      });
      expect(await lookUp({ all: true }, false)).toStrictEqual({
        code: 'EREFUSEDADDRESS',
      });
    },
  );

  it('passes a public address on for a tenant not listed', async () => {
    resolveTo(['93.184.215.14']);
    expect(await lookUp({}, false)).toStrictEqual({
      result: ['93.184.215.14', 4],
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
  let requests = 0;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.end('{"keys":[]}');
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((done) => server.close(done)));

  const get = (url: string, allowPrivate = true) =>
    fetchFromIssuer(url, url, {
      signal: AbortSignal.timeout(2000),
      allowPrivate,
    });
  const failure = (url: string, allowPrivate: boolean) =>
    get(url, allowPrivate).then(
      () => 'fetched',
      (e: Error) => [e.constructor.name, e.message],
    );

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

  it('refuses loopback for a tenant the operator does not list, before any connection', async () => {
    const asked = resolveTo(['127.0.0.1']);
    const before = requests;
    const url = `http://issuer.localhost:${port}/jwks`;
    expect(await failure(url, false)).toStrictEqual([
      'IssuerFetchError',
      `${url}: must not name a loopback address`,
    ]);
    expect([asked, requests - before]).toStrictEqual([[], 0]);
  });

  it.each([
    ['10.0.0.7', false, 'a private network address'],
    ['127.0.0.1', false, 'a loopback address'],
    ['::ffff:10.0.0.7', false, 'a private network address'],
    [
      '169.254.169.254',
      true,
      'a link-local address or a cloud metadata service',
    ],
  ])(
    'refuses at connect time a name that resolves to %s (tenant listed: %s)',
    async (address, allowPrivate, reason) => {
      const asked = resolveTo([address]);
      const before = requests;
      const url = `https://issuer.example.test:${port}/jwks`;
      expect(await failure(url, allowPrivate)).toStrictEqual([
        'IssuerFetchError',
        `${url}: refused: its name resolves to ${reason}`,
      ]);
      expect([asked, requests - before]).toStrictEqual([
        ['issuer.example.test'],
        0,
      ]);
    },
  );
});
