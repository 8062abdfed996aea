import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookConfig } from '../../src/config/app-config';
import { until } from './until';

/**
 * Webhook delivery with short times, so that a delivery follows its change
 * at once and back-off, timeouts and leases play out within a test; each
 * test names what it needs otherwise.
 */
export function fastWebhooks(
  changes: Partial<WebhookConfig> = {},
): WebhookConfig {
  return {
    deliver: true,
    pollMs: 20,
    timeoutMs: 300,
    leaseMs: 1000,
    retryBaseMs: 20,
    retryMaxMs: 100,
    retrySeconds: 3600,
    concurrency: 4,
    tenantConcurrency: 4,
    claimMs: 10_000,
    logDays: 7,
    privateNetworkTenants: [],
    ...changes,
  };
}

/** What the receiver does with the next request. */
export type Behaviour =
  { answer: number; headers?: Record<string, string> } | { slowMs: number };

/** A delivery as it arrived, with what verifying it said. */
export interface Delivery {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: {
    type: string;
    timestamp: string;
    data: Record<string, any>;
  };
  /** Whether `verify` accepted it with each secret given to the receiver. */
  verified: boolean[];
}

/**
 * A webhook endpoint on loopback, for tests: it records every request,
 * verifies each with the standardwebhooks package's own verifier and the
 * secrets it is given, answers as `next` says (2xx by default), and counts
 * any request that arrives while another with the same webhook-id is still
 * open (a concurrent duplicate).
 */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  /** Requests that came while one with the same id was open. */
  concurrentDuplicates = 0;
  secrets: string[] = [];
  /** How long every answer takes, unless a behaviour says otherwise. */
  delayMs = 0;
  /** How long the answer to one delivery takes, when set (instead of delayMs). */
  delayOf?: (delivery: Delivery) => number;
  private readonly open = new Set<string>();
  private readonly queue: Behaviour[] = [];
  private server?: Server;

  constructor(public port = 0) {}

  /** Listens (again, on the same port once it has one). */
  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 1000;
    await new Promise<void>((done) =>
      server.listen(this.port, '127.0.0.1', done),
    );
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops listening and drops open connections: the endpoint is down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** The behaviours of the next requests, in order; then 204 again. */
  next(...behaviours: Behaviour[]): void {
    this.queue.push(...behaviours);
  }

  /** Forgets the behaviours not used yet: 204 from now on. */
  recover(): void {
    this.queue.length = 0;
  }

  /** The ids received, each once, in the order they first came. */
  uniqueIds(): string[] {
    return [...new Set(this.deliveries.map((d) => d.id))];
  }

  /** The first arrival of each id, in order. */
  firstArrivals(): Delivery[] {
    const seen = new Set<string>();
    return this.deliveries.filter((d) =>
      seen.has(d.id) ? false : (seen.add(d.id), true),
    );
  }

  /**
   * The event ids of each identity in the order they first arrived: in
   * order per identity, each list increases.
   */
  firstArrivalsByIdentity(): Record<string, bigint[]> {
    const by: Record<string, bigint[]> = {};
    for (const d of this.firstArrivals())
      (by[d.payload.data.identityId] ??= []).push(
        BigInt(d.payload.data.eventId),
      );
    return by;
  }

  /** Waits until `ready` holds (10 s at most), naming what arrived if not. */
  waitFor(ready: () => boolean): Promise<void> {
    return until(ready, {
      what: 'the deliveries awaited',
      context: () => `received ${JSON.stringify(this.uniqueIds())}`,
    });
  }

  private async handle(
    req: IncomingMessage,
    res: import('node:http').ServerResponse,
  ) {
    const id = String(req.headers['webhook-id']);
    if (this.open.has(id)) this.concurrentDuplicates++;
    this.open.add(id);
    const done = () => this.open.delete(id);
    res.once('close', done);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    const delivery: Delivery = {
      id,
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
      body,
      payload: JSON.parse(body),
      verified: this.secrets.map((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      }),
    };
    this.deliveries.push(delivery);
    const delayMs = this.delayOf?.(delivery) ?? this.delayMs;
    if (delayMs) await new Promise((wait) => setTimeout(wait, delayMs));
    const behaviour = this.queue.shift() ?? { answer: 204 };
    if ('slowMs' in behaviour) {
      await new Promise((wait) => setTimeout(wait, behaviour.slowMs));
      if (!res.destroyed) res.writeHead(200).end();
      return;
    }
    res.writeHead(behaviour.answer, behaviour.headers).end();
  }
}
