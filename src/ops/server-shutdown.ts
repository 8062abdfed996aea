import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/**
 * On shutdown, stop accepting connections and let requests in flight finish
 * before anything else (the database above all) is closed. Node closes idle
 * keep-alive connections itself; the request timeout bounds the wait.
 */
@Injectable()
export class ServerShutdown implements BeforeApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as
      Server | undefined;
    if (!server?.listening) return;
    await new Promise<void>((done) => server.close(() => done()));
  }
}
