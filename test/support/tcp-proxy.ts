import { createServer, Server, Socket } from 'node:net';
import { AddressInfo } from 'node:net';

/**
 * A TCP proxy the test controls, between the service and PostgreSQL.
 * `cut()` drops every connection and refuses new ones until `restore()`;
 * `blackhole()` keeps accepting but forwards nothing, like a dead network.
 */
export class TcpProxy {
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  private mode: 'open' | 'cut' | 'blackhole' = 'open';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      if (this.mode === 'cut') return client.destroy();
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.mode === 'blackhole') return;
      const upstream = new Socket();
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      upstream.connect(this.targetPort, this.targetHost, () => {
        client.pipe(upstream);
        upstream.pipe(client);
      });
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.port = (this.server.address() as AddressInfo).port;
  }

  cut(): void {
    this.mode = 'cut';
    for (const socket of this.sockets) socket.destroy();
  }

  blackhole(): void {
    this.mode = 'blackhole';
    for (const socket of this.sockets) {
      socket.unpipe();
      socket.pause();
    }
  }

  restore(): void {
    this.mode = 'open';
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server.close(done));
  }
}
