import { exportJWK, generateKeyPair, JWK, SignJWT } from 'jose';
import {
  createServer,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import { AddressInfo } from 'node:net';

export const AUDIENCE = 'identity-api';

/** How a realm's server answers: normally, or with one of an issuer's failures. */
export type Behaviour =
  'ok' | 'status-500' | 'not-json' | 'redirect' | 'too-large' | 'silent';

/**
 * A local authorization server on loopback: per realm, a discovery document
 * and a JWKS of keys made here, each answering as its behaviour says, and
 * a count of the requests it received per path.
 */
export class LocalIssuer {
  readonly keys: {
    kid: string;
    alg: string;
    privateKey: CryptoKey;
    jwk: JWK;
  }[] = [];
  published: string[] = [];
  readonly discovery = new Map<string, Behaviour>();
  readonly jwks = new Map<string, Behaviour>();
  readonly hits = new Map<string, number>();
  private server!: Server;
  private readonly hanging = new Set<ServerResponse>();
  base = '';

  async start() {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private answer(req: IncomingMessage, res: ServerResponse) {
    const path = req.url!;
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    const realm = path.split('/')[1];
    const isDiscovery = path.endsWith('/.well-known/openid-configuration');
    const behaviour =
      (isDiscovery ? this.discovery : this.jwks).get(realm) ?? 'ok';
    res.setHeader('Content-Type', 'application/json');
    if (behaviour === 'silent') return void this.hanging.add(res);
    if (behaviour === 'status-500')
      return res.writeHead(500).end('{"error":"secret-ish remote text"}');
    if (behaviour === 'not-json') return res.end('<html>remote page</html>');
    if (behaviour === 'redirect')
      return res
        .writeHead(302, { Location: `${this.base}/elsewhere${path}` })
        .end();
    if (behaviour === 'too-large')
      return res.end(
        JSON.stringify({ keys: [], padding: 'x'.repeat(1024 * 1024) }),
      );
    if (isDiscovery)
      return res.end(
        JSON.stringify({
          issuer: `${this.base}/${realm}`,
          jwks_uri: `${this.base}/${realm}/jwks`,
        }),
      );
    const keys = this.keys
      .filter((k) => this.published.includes(k.kid))
      .map((k) => ({ ...k.jwk, kid: k.kid, alg: k.alg, use: 'sig' }));
    res.end(JSON.stringify({ keys }));
  }

  issuer(realm: string) {
    return `${this.base}/${realm}`;
  }

  requests(path: string) {
    return this.hits.get(path) ?? 0;
  }

  async addKey(kid: string, alg: 'RS256' | 'ES256' | 'EdDSA', publish = true) {
    const { privateKey, publicKey } = await generateKeyPair(alg, {
      extractable: true,
    });
    this.keys.push({ kid, alg, privateKey, jwk: await exportJWK(publicKey) });
    if (publish) this.published.push(kid);
    return publicKey;
  }

  /** A token of `realm`; `exp: null` leaves the expiry out, `iat` sets the issue time. */
  sign(
    claims: Record<string, unknown>,
    {
      kid = 'rsa',
      realm = 'example',
      audience = AUDIENCE,
      exp = '5m' as string | number | null,
      iat = undefined as number | undefined,
    } = {},
  ) {
    const key = this.keys.find((k) => k.kid === kid)!;
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid })
      .setIssuer(this.issuer(realm))
      .setAudience(audience)
      .setIssuedAt(iat);
    if (exp !== null) jwt.setExpirationTime(exp);
    return jwt.sign(key.privateKey);
  }

  stop() {
    for (const res of this.hanging) res.destroy();
    return new Promise((done) => this.server.close(done));
  }
}

/**
 * A LocalIssuer with an RS256 key, for the tests of a describe block:
 * started before them (before the hooks declared after this call), stopped
 * after them.
 */
export function useLocalIssuer(): LocalIssuer {
  const idp = new LocalIssuer();
  beforeAll(async () => {
    await idp.start();
    await idp.addKey('rsa', 'RS256');
  });
  afterAll(() => idp.stop());
  return idp;
}
