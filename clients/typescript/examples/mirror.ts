// A local copy of a tenant's identities, kept fresh through webhooks: the
// mirror subscribes itself, has the change log replayed from its start to
// fill the copy, and from then on fetches an identity again only when an
// event's ETag says its copy is old (with If-None-Match, so an unchanged
// identity costs a 304). In your project, import from '@identity-service/client'.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createIdentityClient,
  ProblemError,
  verifyWebhook,
  type Identity,
  type ReducedIdentity,
  type IdentityClient,
  type WebhookEvent,
} from '../src';

export interface MirrorOptions {
  /** Where the service is. */
  baseUrl: string;
  tenant: string;
  /** An app token with identities:read: reads every identity whole. */
  readToken: string;
  /** An app token with tenant:admin: subscribes the mirror. */
  adminToken: string;
  /** The port to listen on (0: any free one), on loopback unless `host` says. */
  port?: number;
  host?: string;
  /** The URL the service delivers to, when it is not `http://host:port/`. */
  publicUrl?: string;
}

export class Mirror {
  /** The copy: every identity of the tenant, with its ETag. */
  readonly identities = new Map<
    string,
    { etag: string; identity: Identity | ReducedIdentity }
  >();
  private readonly server: Server;
  private secret = '';
  /** Events are applied one at a time, in the order they arrive. */
  private applied: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly api: IdentityClient,
    private readonly tenant: string,
  ) {
    this.server = createServer((req, res) => {
      this.receive(req).then(
        (status) => res.writeHead(status).end(),
        () => res.writeHead(500).end(),
      );
    });
  }

  static async start(options: MirrorOptions): Promise<Mirror> {
    const { baseUrl, tenant } = options;
    const api = createIdentityClient({ baseUrl, token: options.readToken });
    const admin = createIdentityClient({ baseUrl, token: options.adminToken });
    const mirror = new Mirror(api, tenant);
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((done) =>
      mirror.server.listen(options.port ?? 0, host, done),
    );
    const { port } = mirror.server.address() as AddressInfo;
    try {
      const { data: webhook } = await admin.POST(
        '/{tenant}/api/admin/v1/webhooks',
        {
          params: { path: { tenant } },
          body: {
            url: options.publicUrl ?? `http://${host}:${port}/`,
            description: 'mirror',
          },
        },
      );
      mirror.secret = webhook.secret;
      // The change log from its start: an `identity.imported` or `created` of
      // every identity the log still holds, then what changed since.
      await admin.POST('/{tenant}/api/admin/v1/webhooks/{webhookId}/replay', {
        params: { path: { tenant, webhookId: webhook.id } },
        body: { fromEventId: '1' },
      });
    } catch (error) {
      await mirror.stop();
      throw error;
    }
    return mirror;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((done) => this.server.close(done));
  }

  /** Checks a delivery and applies it; the status to answer (2xx: stored). */
  private async receive(req: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let event: WebhookEvent;
    try {
      event = verifyWebhook(this.secret, req.headers, Buffer.concat(chunks));
    } catch {
      return 400;
    }
    const applied = this.applied.then(() => this.apply(event));
    this.applied = applied.catch(() => undefined);
    await applied;
    return 204;
  }

  private async apply({ type, data }: WebhookEvent): Promise<void> {
    const { identityId } = data;
    if (type === 'identity.deleted') {
      this.identities.delete(identityId);
      return;
    }
    if ('etag' in data && this.identities.get(identityId)?.etag === data.etag)
      return;
    try {
      const { data: identity, response } = await this.api.GET(
        '/{tenant}/api/identity/v1/{id}',
        {
          params: { path: { tenant: this.tenant, id: identityId } },
        },
      );
      this.identities.set(identityId, {
        etag: response.headers.get('ETag')!,
        identity,
      });
    } catch (error) {
      // Deleted since: its deletion event follows.
      if (!(error instanceof ProblemError && error.status === 404)) throw error;
      this.identities.delete(identityId);
    }
  }
}
