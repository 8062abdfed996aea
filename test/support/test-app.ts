import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { configureApp, httpAdapter } from '../../src/app.setup';
import { AppConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database';
import { TenantsService } from '../../src/tenants/tenants.service';
import { Caller, caller } from './caller';
import { LogLine, logRecorder } from './log-recorder';
import { allowPrivateNetworks } from './egress';
import { useShared } from './lifecycle';
import { createTestDatabase } from './test-database';
import {
  importCopy,
  importIdentity,
  TestIdentity,
  TestTenant,
} from './test-tenant';

export interface TestApp {
  app: NestExpressApplication;
  http: () => ReturnType<typeof request>;
  /** Requests with this token (none for ''), absolute paths. */
  as(token: string): Caller;
  /**
   * Imports a copy of a tenant file under an id of its own, listed as a
   * tenant that may reach loopback and private networks unless told.
   */
  newTenant(
    file: Record<string, any>,
    options?: { privateNetworks?: boolean },
  ): Promise<TestTenant>;
  /** Imports one identity with an access token, in a tenant of its own. */
  newIdentity(identity?: {
    identityId?: string;
    [field: string]: unknown;
  }): Promise<TestIdentity>;
  /** From now on the service's log lines are kept here, not printed. */
  recordLogs(): LogLine[];
  /** Listens on a loopback port, for clients that write raw bytes; resolves with it. */
  listen(): Promise<number>;
  database: Database;
  tenants: TenantsService;
  close(): Promise<void>;
}

export function fixture(name: string): Record<string, any> {
  return JSON.parse(
    readFileSync(join(__dirname, '..', 'fixtures', name), 'utf8'),
  );
}

export interface TestAppOptions {
  /** Tenant files imported at start. */
  tenants?: object[];
  /** Settings that differ from the tests' defaults. */
  config?: Partial<AppConfig>;
  /** Reach PostgreSQL through this local port (a proxy) instead. */
  viaPort?: number;
}

/**
 * The service on a fresh database of its own, with the given tenants
 * imported; they, and the copies of newTenant, may reach loopback and
 * private networks (allowPrivateNetworks) unless `config` names the
 * tenants that may (egressPrivateNetworkTenants).
 */
export async function startTestApp({
  tenants: tenantFiles = [],
  config: overrides = {},
  viaPort,
}: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(overrides);
  if (viaPort && db.config.databaseUrl) {
    const url = new URL(db.config.databaseUrl);
    url.port = String(viaPort);
    db.config.databaseUrl = url.toString();
  }
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(db.config)],
  }).compile();
  const app = configureApp(
    moduleRef.createNestApplication<NestExpressApplication>(httpAdapter(), {
      bodyParser: false,
      bufferLogs: true,
    }),
  );
  await app.init();
  const tenants = app.get(TenantsService);
  const listed = !overrides.egressPrivateNetworkTenants;
  for (const file of tenantFiles) {
    const id = (file as { tenant?: { id?: unknown } }).tenant?.id;
    if (listed && typeof id === 'string') allowPrivateNetworks(db.config, id);
    await tenants.importTenant(structuredClone(file));
  }
  const server = app.getHttpServer();
  return {
    app,
    http: () => request(server),
    as: (token) => caller(server, token),
    async newTenant(file, options) {
      return importCopy(server, tenants, file, (id) => {
        if (listed && options?.privateNetworks !== false)
          allowPrivateNetworks(db.config, id);
      });
    },
    newIdentity: (identity) => importIdentity(server, tenants, identity),
    recordLogs() {
      const lines: LogLine[] = [];
      app.useLogger(logRecorder(lines));
      return lines;
    },
    async listen() {
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      return (server.address() as AddressInfo).port;
    },
    database: app.get(Database),
    tenants,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

/**
 * The service for the tests of a describe block: started before them
 * (with options computed then, when a function gives them, so that they
 * may name what earlier hooks started) and closed after them.
 */
export function useTestApp(
  options: TestAppOptions | (() => TestAppOptions) = {},
): TestApp {
  return useShared(
    'the test app',
    () => startTestApp(typeof options === 'function' ? options() : options),
    (t) => t.close(),
  );
}

/** The service for one piece of a test, closed when `work` ends. */
export async function withTestApp<T>(
  options: TestAppOptions,
  work: (t: TestApp) => Promise<T>,
): Promise<T> {
  const t = await startTestApp(options);
  try {
    return await work(t);
  } finally {
    await t.close();
  }
}

/**
 * A copy of `file` of its own (see newTenant) for the tests of a describe
 * block, made before them, or before each of them with `each`.
 */
export function useTenant(
  t: TestApp,
  file: Record<string, any>,
  { each = false } = {},
): TestTenant {
  return useShared('the tenant', () => t.newTenant(file), undefined, { each });
}
