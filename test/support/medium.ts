import type { Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { AppModule } from '../../src/app.module';
import { AppConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database';
import { TenantsService } from '../../src/tenants/tenants.service';
import { allowPrivateNetworks } from './egress';
import { createTestDatabase } from './test-database';

/**
 * The middle of the tests: the service's modules, with their real
 * repositories, on a fresh copy of the migrated template database, and no
 * HTTP. A test calls a service as its controller would and asserts what it
 * answers and what the database holds afterwards.
 */
export interface Medium {
  get<T>(type: Type<T>): T;
  database: Database;
  /** Imports each tenant file (see factories.ts), its tenant listed for private networks. */
  load(...files: object[]): Promise<void>;
  close(): Promise<void>;
}

export async function startMedium(
  overrides: Partial<AppConfig> = {},
): Promise<Medium> {
  const db = await createTestDatabase(overrides);
  // Nothing is delivered: webhooks' receivers are not the middle's to reach.
  db.config.webhooks = { ...db.config.webhooks, deliver: false };
  let module: TestingModule | undefined;
  try {
    module = await Test.createTestingModule({
      imports: [AppModule.forRoot(db.config)],
    }).compile();
    module.useLogger(false);
    await module.init();
  } catch (error) {
    await module?.close();
    await db.drop();
    throw error;
  }
  const ready = module;
  const tenants = ready.get(TenantsService);
  return {
    get: (type) => ready.get(type),
    database: ready.get(Database),
    async load(...files) {
      for (const file of files) {
        // Its issuers, providers and receivers may be on loopback.
        const id = (file as { tenant?: { id?: unknown } }).tenant?.id;
        if (typeof id === 'string') allowPrivateNetworks(db.config, id);
        await tenants.importTenant(structuredClone(file));
      }
    },
    async close() {
      await ready.close();
      await db.drop();
    },
  };
}
