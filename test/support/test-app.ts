import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { readFileSync } from 'node:fs';
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
  database: Database;
  tenants: TenantsService;
  close(): Promise<void>;
}

export function fixture(name: string): Record<string, any> {
  return JSON.parse(
    readFileSync(join(__dirname, '..', 'fixtures', name), 'utf8'),
  );
}

/**
 * The service on a fresh database of its own, with the given tenants
 * imported; they, and the copies of newTenant, may reach loopback and
 * private networks (allowPrivateNetworks) unless `overrides` names the
 * tenants that may (egressPrivateNetworkTenants).
 */
export async function startTestApp(
  tenantFiles: object[] = [],
  overrides: Partial<AppConfig> = {},
  /** Reach PostgreSQL through this local port (a proxy) instead. */
  viaPort?: number,
): Promise<TestApp> {
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
    database: app.get(Database),
    tenants,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
