import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response as TestResponse } from 'supertest';
import type { TestApp } from './test-app';

/**
 * A real OpenID Provider on loopback (`oidc-provider`, certified), with
 * one client for the service and its development login: any login name
 * signs in as the subject of that name, with a name, a picture and a
 * verified e-mail address.
 */
export class LocalOpenIdProvider {
  private server?: Server;
  base = '';

  constructor(
    private readonly client: {
      clientId: string;
      clientSecret: string;
      redirectUris: string[];
    },
    /** Other clients of the provider (an attacker's application, say), public ones. */
    private readonly others: {
      clientId: string;
      redirectUris: string[];
    }[] = [],
  ) {}

  async start(): Promise<void> {
    const { default: Provider } = await import('oidc-provider');
    this.server = createServer();
    await new Promise<void>((done) =>
      this.server!.listen(0, '127.0.0.1', done),
    );
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    // Its notes on development-only defaults (in-memory storage, its own
    // keys, the development login) are what a test wants: not printed.
    const warn = console.warn;
    const info = console.info;
    console.warn = console.info = () => undefined;
    const provider = new Provider(this.base, {
      clients: [
        {
          client_id: this.client.clientId,
          client_secret: this.client.clientSecret,
          redirect_uris: this.client.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
        ...this.others.map((other) => ({
          client_id: other.clientId,
          redirect_uris: other.redirectUris,
          token_endpoint_auth_method: 'none' as const,
          grant_types: ['authorization_code'],
          response_types: ['code' as const],
        })),
      ],
      findAccount: (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: () => ({
          sub: id,
          name: `Name of ${id}`,
          email: `${id}@op.example`,
          email_verified: true,
          picture: `https://op.example/${id}.png`,
        }),
      }),
      claims: {
        openid: ['sub'],
        profile: ['name', 'picture', 'profile'],
        email: ['email', 'email_verified'],
      },
      pkce: { required: () => true },
      ttl: {
        Interaction: 600,
        Session: 600,
        Grant: 600,
        AccessToken: 600,
        IdToken: 600,
        AuthorizationCode: 60,
      },
    });
    console.warn = warn;
    console.info = info;
    provider.on('server_error', () => undefined);
    this.server.on('request', provider.callback());
  }

  stop(): Promise<void> {
    return new Promise((done) => {
      this.server!.close(() => done());
      this.server!.closeAllConnections();
    });
  }
}

/** A browser's answer: its status, where it is sent, its body. */
export interface Visit {
  status: number;
  location?: string;
  body: string;
}

/**
 * A browser with a cookie jar: it opens URLs of the service (through the
 * test app, under `serviceUrl`) and of the provider (by HTTP), one at a
 * time, never following a redirect by itself.
 */
export class Browser {
  private readonly jar = new Map<string, string>();

  constructor(
    private readonly t: TestApp,
    private readonly serviceUrl: string,
  ) {}

  async open(url: string, form?: Record<string, string>): Promise<Visit> {
    if (url.startsWith(this.serviceUrl)) {
      const res: TestResponse = await this.t
        .http()
        .get(url.slice(this.serviceUrl.length));
      return {
        status: res.status,
        location: res.headers.location,
        body: res.text,
      };
    }
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        connection: 'close',
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body: form && new URLSearchParams(form).toString(),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      this.jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    return {
      status: res.status,
      location: location === null ? undefined : new URL(location, url).href,
      body: await res.text(),
    };
  }

  /**
   * From the provider's authorization URL to where it sends the browser
   * back: signs in as `login`, and consents (or, with `deny`, refuses).
   */
  async signInAt(
    authorizationUrl: string,
    login: string,
    { deny = false } = {},
  ): Promise<string> {
    let visit = await this.open(authorizationUrl);
    let url = authorizationUrl;
    for (let step = 0; step < 10; step++) {
      if (visit.status >= 300 && visit.status < 400) {
        url = visit.location!;
        if (url.startsWith(this.serviceUrl)) return url;
        visit = await this.open(url);
        continue;
      }
      const prompt = /name="prompt" value="([a-z]+)"/.exec(visit.body)?.[1];
      if (prompt === 'login')
        visit = await this.open(url, { prompt, login, password: 'any' });
      else if (prompt === 'consent')
        visit = deny
          ? await this.open(`${url}/abort`)
          : await this.open(url, { prompt });
      else
        throw new Error(
          `the provider answered ${visit.status}: ${visit.body.slice(0, 200)}`,
        );
    }
    throw new Error('the provider never sent the browser back');
  }
}
