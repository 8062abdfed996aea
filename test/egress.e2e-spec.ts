import type { LookupAddress, LookupOptions } from 'node:dns';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolver } from '../src/auth/issuer-documents';
import { AppConfig } from '../src/config/app-config';
import { identity, tenantFile, token } from './support/factories';
import { Browser } from './support/oidc-op';
import { problemBody as problem } from './support/problem';
import { useTestApp } from './support/test-app';
import type { TestTenant } from './support/test-tenant';
import { until } from './support/until';
import { fastWebhooks, WebhookReceiver } from './support/webhook-receiver';

// The service's egress policy seen by its clients: a tenant the operator
// does not list cannot have the service send anything to loopback or a
// private network, neither by naming the address nor by a name that
// resolves there. Names are resolved by a stub: nothing here connects
// anywhere but loopback.

const SERVICE = 'http://127.0.0.1:9';
const APP = 'https://app.example.test/linked';
const ADMIN = token({ appId: 'console', scopes: ['tenant:admin'] });
const ANN = token({ identityId: 'ann' });

/** Short times, so that a delivery is attempted at once. */
const FAST = fastWebhooks();

/** A loopback HTTP server answering with `answer`, recording what it was asked. */
async function loopbackServer(
  answer: (req: IncomingMessage, base: string) => [number, object, string?],
) {
  const requests: { path: string; authorization?: string }[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    requests.push({
      path: req.url!,
      authorization: req.headers.authorization,
    });
    const [status, body, location] = answer(req, base);
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(location && { location }),
    });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Names under example.test resolve to `addresses[name]`; every other name as usual. */
function resolveNames(addresses: Record<string, string>) {
  const real = resolver.lookup;
  resolver.lookup = ((
    hostname: string,
    options: LookupOptions,
    callback: (error: null, found: LookupAddress[]) => void,
  ) => {
    if (!hostname.endsWith('.example.test'))
      return (real as unknown as typeof resolver.lookup)(
        hostname,
        options,
        callback as never,
      );
    const address = addresses[hostname];
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  }) as unknown as typeof resolver.lookup;
  return () => {
    resolver.lookup = real;
  };
}

describe('the egress policy', () => {
  const t = useTestApp({ config: { publicUrl: SERVICE, webhooks: FAST } });

  describe('webhooks', () => {
    const FILE = tenantFile({
      id: 'egress-hooks',
      identities: [identity('ann')],
      tokens: [ADMIN, ANN],
    });
    const post = (tenant: TestTenant, body: object) =>
      t
        .http()
        .post(`/${tenant.id}/api/admin/v1/webhooks`)
        .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
        .send(body);

    it.each([
      ['http://127.0.0.1:4000/', 'must not name a loopback address'],
      ['http://localhost:22/', 'must not name a loopback address'],
      ['http://[::1]:6379/', 'must not name a loopback address'],
      ['https://[::ffff:127.0.0.1]:5432/', 'must not name a loopback address'],
      ['https://10.0.0.1/hooks', 'must not name a private network address'],
      ['https://172.16.0.1/', 'must not name a private network address'],
      ['https://192.168.1.1/', 'must not name a private network address'],
      ['https://100.64.0.1/', 'must not name a private network address'],
      ['https://[fc00::1]/', 'must not name a private network address'],
      ['https://[::ffff:10.0.0.1]/', 'must not name a private network address'],
      [
        'https://0.0.0.0/',
        'must not name an unspecified, multicast or reserved address',
      ],
      [
        'https://[::]/',
        'must not name an unspecified, multicast or reserved address',
      ],
      [
        'https://169.254.169.254/',
        'must not name a link-local address or a cloud metadata service',
      ],
      [
        'https://user:pass@hooks.example.test/',
        'must not carry a user name or password',
      ],
    ])(
      'refuses %s for a tenant the operator does not list: 400 naming the field',
      async (url, message) => {
        const tenant = await t.newTenant(FILE, { privateNetworks: false });
        const res = await post(tenant, { url });
        expect([res.status, res.body]).toStrictEqual([
          400,
          {
            ...problem(400, 'invalid-request', `url ${message}`),
            errors: [{ field: 'url', message }],
          },
        ]);
        const list = await t
          .as(tenant.token(ADMIN.token))
          .get(`/${tenant.id}/api/admin/v1/webhooks`);
        expect(list.body).toStrictEqual([]);
      },
    );

    it('takes a loopback receiver for a tenant the operator lists', async () => {
      const tenant = await t.newTenant(FILE);
      const res = await post(tenant, { url: 'http://127.0.0.1:4000/' });
      expect([res.status, res.body.url]).toStrictEqual([
        201,
        'http://127.0.0.1:4000/',
      ]);
    });

    it('refuses at connect time a name that resolves to loopback for a tenant not listed: no port is probed', async () => {
      const receiver = await new WebhookReceiver().start();
      const restore = resolveNames({ 'hooks.example.test': '127.0.0.1' });
      try {
        const tenant = await t.newTenant(FILE, { privateNetworks: false });
        const made = await post(tenant, {
          url: `https://hooks.example.test:${receiver.port}/hooks`,
        });
        expect(made.status).toBe(201);
        await tenant.as(ANN.token).put('', { displayName: 'Ann' }).expect(200);
        const status = async () =>
          (
            await t
              .as(tenant.token(ADMIN.token))
              .get(`/${tenant.id}/api/admin/v1/webhooks/${made.body.id}/status`)
          ).body;
        await until(async () => (await status()).failedAttempts >= 1);
        expect((await status()).lastError).toBe(
          'refused: its name resolves to a loopback address',
        );
        expect(receiver.deliveries).toStrictEqual([]);
      } finally {
        restore();
        await receiver.stop();
      }
    });
  });

  describe('the user info of a plain OAuth 2.0 provider', () => {
    let provider: Awaited<ReturnType<typeof loopbackServer>>;
    let internal: Awaited<ReturnType<typeof loopbackServer>>;
    beforeAll(async () => {
      // The attacker's provider: approves at once, hands out a token.
      provider = await loopbackServer((req) => {
        const url = new URL(req.url!, 'http://provider');
        if (url.pathname === '/authorize') {
          const back = new URL(url.searchParams.get('redirect_uri')!);
          back.searchParams.set('code', 'the-code');
          back.searchParams.set('state', url.searchParams.get('state')!);
          return [302, {}, back.href];
        }
        return [200, { access_token: 'the-token', token_type: 'bearer' }];
      });
      // A service of the operator's internal network, not for tenants.
      internal = await loopbackServer(() => [
        200,
        { id: 'root', name: 'Internal Admin', email: 'root@corp.internal' },
      ]);
    });
    afterAll(async () => {
      await provider.stop();
      await internal.stop();
    });

    const file = () =>
      tenantFile({
        id: 'egress-link',
        linkReturnUrls: [APP],
        accountProviders: [
          {
            accountProviderId: 'corp',
            signInUrl: 'https://corp.example.test/',
            link: {
              type: 'oauth2',
              authorizationEndpoint: `${provider.base}/authorize`,
              tokenEndpoint: `${provider.base}/token`,
              userInfoEndpoint: `${internal.base}/admin/whoami`,
              clientId: 'attacker',
              claims: {
                issuedUserId: 'id',
                displayName: 'name',
                emailAddress: 'email',
              },
            },
          },
        ],
        identities: [identity('ann')],
        tokens: [ANN],
      });

    /** Goes from ann's signInUrl through the provider and back: the result's query. */
    async function link(tenant: TestTenant) {
      const accounts = await tenant.as(ANN.token).get('/accounts').expect(200);
      const signInUrl = accounts.body[0].signInUrl as string;
      const browser = new Browser(t, SERVICE);
      const start = await browser.open(signInUrl);
      const back = await browser.open(start.location!);
      const done = await browser.open(back.location!);
      const result = Object.fromEntries(new URL(done.location!).searchParams);
      if (result.result !== 'confirm') return result;
      // The application confirms with Ann's own token.
      const confirmed = await t
        .http()
        .post(`${tenant.api}/accounts/link-confirmations`)
        .set('Authorization', `Bearer ${tenant.token(ANN.token)}`)
        .send({ linkCode: result.linkCode });
      return {
        accountProviderId: result.accountProviderId,
        confirmed: confirmed.status,
      };
    }

    it('is refused at configuration for a tenant the operator does not list: the import, and the admin API', async () => {
      await expect(
        t.newTenant(file(), { privateNetworks: false }),
      ).rejects.toMatchObject({
        errors: [
          {
            field: 'accountProviders[0].link.tokenEndpoint',
            message: 'must not name a loopback address',
          },
          {
            field: 'accountProviders[0].link.userInfoEndpoint',
            message: 'must not name a loopback address',
          },
        ],
      });
      const tenant = await t.newTenant(
        tenantFile({ id: 'egress-admin', tokens: [ADMIN] }),
        { privateNetworks: false },
      );
      const admin = (path: string, body: object) =>
        t
          .http()
          .post(`/${tenant.id}/api/admin/v1${path}`)
          .set('Authorization', `Bearer ${tenant.token(ADMIN.token)}`)
          .send(body);
      const made = await admin('/account-providers', {
        ...(file().accountProviders as object[])[0],
      });
      expect([made.status, made.body.errors]).toStrictEqual([
        400,
        [
          {
            field: 'link.tokenEndpoint',
            message: 'must not name a loopback address',
          },
          {
            field: 'link.userInfoEndpoint',
            message: 'must not name a loopback address',
          },
        ],
      ]);
      const issuer = await admin('/token-issuers', {
        issuer: 'https://10.1.2.3/realms/corp',
        jwksUri: 'http://127.0.0.1:8080/keys',
        audiences: ['a'],
      });
      expect([issuer.status, issuer.body.errors]).toStrictEqual([
        400,
        [
          {
            field: 'issuer',
            message: 'must not name a private network address',
          },
          { field: 'jwksUri', message: 'must not name a loopback address' },
        ],
      ]);
    });

    it('is never fetched for a tenant the operator no longer lists: nothing reaches the internal service, nothing is stored', async () => {
      const tenant = await t.newTenant(file());
      // Configured while listed; the operator then takes the tenant off.
      const config = t.app.get(AppConfig);
      for (const list of new Set([
        config.egressPrivateNetworkTenants,
        config.webhooks.privateNetworkTenants,
      ]))
        if (list.includes(tenant.id)) list.splice(list.indexOf(tenant.id), 1);
      const asked = [provider.requests.length, internal.requests.length];
      expect(await link(tenant)).toStrictEqual({
        accountProviderId: 'corp',
        result: 'error',
        error: 'provider_error',
      });
      // The browser itself went to the authorization endpoint; the service sent nothing.
      expect([
        provider.requests.length - asked[0],
        internal.requests.length - asked[1],
      ]).toStrictEqual([1, 0]);
      const accounts = await tenant.as(ANN.token).get('/accounts').expect(200);
      expect(accounts.body[0].accounts).toStrictEqual([]);
    });

    it('is fetched with the bearer token, and its fields stored, for a tenant the operator lists', async () => {
      const tenant = await t.newTenant(file());
      const asked = internal.requests.length;
      expect(await link(tenant)).toStrictEqual({
        accountProviderId: 'corp',
        confirmed: 201,
      });
      expect(internal.requests.slice(asked)).toStrictEqual([
        { path: '/admin/whoami', authorization: 'Bearer the-token' },
      ]);
      const accounts = await tenant.as(ANN.token).get('/accounts').expect(200);
      expect(accounts.body[0].accounts).toMatchObject([
        { issuedUserId: 'root', displayName: 'Internal Admin' },
      ]);
    });
  });
});
