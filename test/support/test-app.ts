import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/app.setup';
import { AppConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database';
import { TenantsService } from '../../src/tenants/tenants.service';
import { createTestDatabase } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  http: () => ReturnType<typeof request>;
  database: Database;
  tenants: TenantsService;
  close(): Promise<void>;
}

export function fixture(name: string): Record<string, any> {
  return JSON.parse(
    readFileSync(join(__dirname, '..', 'fixtures', name), 'utf8'),
  );
}

/** The service on a fresh database of its own, with the given tenants imported. */
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
    moduleRef.createNestApplication<NestExpressApplication>({
      bodyParser: false,
      bufferLogs: true,
    }),
  );
  await app.init();
  const tenants = app.get(TenantsService);
  for (const file of tenantFiles)
    await tenants.importTenant(structuredClone(file));
  return {
    app,
    http: () => request(app.getHttpServer()),
    database: app.get(Database),
    tenants,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
