import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A user of the GitHub-style server, as its user-info endpoint gives it. */
export interface OAuthUser {
  id: number;
  login: string;
  name?: string;
  avatar_url?: string;
  html_url?: string;
}

/**
 * A plain OAuth 2.0 provider in the style of GitHub, on loopback: no
 * OpenID Connect, an authorization endpoint that approves at once as the
 * user `signedIn` (or refuses, when it is null), a token endpoint that
 * checks the client, the redirect URI and PKCE, and `/user`.
 */
export class LocalOAuthServer {
  private server?: Server;
  private readonly codes = new Map<
    string,
    { user: OAuthUser; challenge: string; redirectUri: string }
  >();
  private readonly tokens = new Map<string, OAuthUser>();
  base = '';
  signedIn: OAuthUser | null = null;
  /** Every form the token endpoint received, in order. */
  readonly tokenRequests: URLSearchParams[] = [];

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url!, this.base);
      const json = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/login/oauth/authorize') {
        const q = url.searchParams;
        const back = new URL(q.get('redirect_uri')!);
        back.searchParams.set('state', q.get('state')!);
        if (this.signedIn && q.get('client_id') === this.clientId) {
          const code = randomBytes(16).toString('hex');
          this.codes.set(code, {
            user: this.signedIn,
            challenge: q.get('code_challenge')!,
            redirectUri: q.get('redirect_uri')!,
          });
          back.searchParams.set('code', code);
        } else back.searchParams.set('error', 'access_denied');
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (url.pathname === '/login/oauth/access_token') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          this.tokenRequests.push(form);
          const grant = this.codes.get(form.get('code') ?? '');
          this.codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256')
            .update(verifier)
            .digest('base64url');
          if (
            form.get('client_id') !== this.clientId ||
            form.get('client_secret') !== this.clientSecret ||
            !grant ||
            grant.challenge !== challenge ||
            grant.redirectUri !== form.get('redirect_uri')
          )
            return json(400, { error: 'invalid_grant' });
          const token = randomBytes(16).toString('hex');
          this.tokens.set(token, grant.user);
          json(200, { access_token: token, token_type: 'bearer', scope: '' });
        });
        return;
      }
      if (url.pathname === '/user') {
        const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
        const user = token && this.tokens.get(token[1]);
        return user
          ? json(200, user)
          : json(401, { message: 'Bad credentials' });
      }
      json(404, { message: 'Not Found' });
    });
    await new Promise<void>((done) =>
      this.server!.listen(0, '127.0.0.1', done),
    );
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((done) => {
      this.server!.close(() => done());
      this.server!.closeAllConnections();
    });
  }
}
