import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/** How often connections that went idle during shutdown are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * On shutdown, stop accepting connections and let requests in flight finish
 * before anything else (the database above all) is closed. Node closes the
 * connections that are idle when the server closes; a connection whose
 * request finishes afterwards would stay open for the whole keep-alive
 * timeout, so those are closed as soon as they go idle. The request timeout
 * bounds the wait.
 */
@Injectable()
export class ServerShutdown implements BeforeApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as
      Server | undefined;
    if (!server?.listening) return;
    const sweeper = setInterval(
      () => server.closeIdleConnections(),
      IDLE_SWEEP_MS,
    );
    try {
      await new Promise<void>((done) => server.close(() => done()));
    } finally {
      clearInterval(sweeper);
    }
  }
}
