import type { Provider, Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { AppConfig } from '../../src/config/app-config';
import { SecretBox } from '../../src/common/secrets/secret-box';
import { Database } from '../../src/database/database';
import { TenantsRepository } from '../../src/tenants/tenants.repository';
import { TenantsService } from '../../src/tenants/tenants.service';
import { allowPrivateNetworks } from './egress';
import { tenantFile, type TenantFile, type TenantParts } from './factories';
import { useShared } from './lifecycle';
import { createTestDatabase } from './test-database';

/**
 * The middle of the tests: one service, built with the providers a test
 * names, on the test file's own copy of the migrated template database,
 * and no HTTP. A test calls the service as its controller would and
 * asserts what it answers and what the database holds afterwards.
 */
export interface MediumService {
  /** The service, or a provider the test named (a mock as its stub, a reader). */
  get<T>(type: Type<T>): T;
  database: Database;
  /**
   * A tenant made of the parts given (factories.ts), imported, listed for
   * private networks: its file, to read its ids from.
   */
  newTenant(parts?: TenantParts): Promise<TenantFile>;
}

export interface MediumProviders {
  /**
   * Built with the service, as it gets them: its repositories and the
   * providers they need. Nothing else is there: a dependency of the
   * service left out of `real` and `mock` fails the build.
   */
  real?: Type<unknown>[];
  /** Stubbed: each method a jest.fn() answering undefined, for the test to set. */
  mock?: Type<unknown>[];
  /**
   * What the test reads results (or makes a caller) with: other services
   * and their repositories, built apart from the service, on the same
   * database and with the same stubs.
   */
  readers?: Type<unknown>[];
}

interface FileDatabase {
  config: AppConfig;
  database: Database;
  newTenant: MediumService['newTenant'];
  close(): Promise<void>;
}

let fileDatabase: Promise<FileDatabase> | undefined;

/**
 * The database of the test file, opened for its first medium service and
 * closed after its last test (the file's tenants have ids of their own:
 * see factories.ts), with the importer that loads the tests' data, which
 * is no part of any service under test.
 */
async function openFileDatabase(): Promise<FileDatabase> {
  const db = await createTestDatabase();
  const database = await Database.connect(db.config);
  let importer: TestingModule | undefined;
  const close = async () => {
    await importer?.close();
    await database.close();
    await db.drop();
  };
  try {
    importer = await build(db.config, database, [
      TenantsService,
      TenantsRepository,
      SecretBox,
    ]);
    const tenants = importer.get(TenantsService);
    return {
      config: db.config,
      database,
      async newTenant(parts) {
        const file = tenantFile(parts);
        // Its issuers, providers and receivers may be on loopback.
        allowPrivateNetworks(db.config, file.tenant.id);
        await tenants.importTenant(structuredClone(file));
        return file;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

// Registered as the test file loads this module: after all of its tests.
afterAll(async () => {
  const opened = fileDatabase;
  fileDatabase = undefined;
  await (await opened?.catch(() => undefined))?.close();
});

/** A module of exactly these providers, on the file's configuration and database. */
async function build(
  config: AppConfig,
  database: Database,
  providers: Provider[],
): Promise<TestingModule> {
  const module = await Test.createTestingModule({
    providers: [
      { provide: AppConfig, useValue: config },
      { provide: Database, useValue: database },
      ...providers,
    ],
  }).compile();
  module.useLogger(false);
  return module.init();
}

/** `service` with what `providers` names, on the test file's database. */
export async function newMediumService(
  service: Type<unknown>,
  { real = [], mock = [], readers = [] }: MediumProviders = {},
): Promise<MediumService & { close(): Promise<void> }> {
  const file = await (fileDatabase ??= openFileDatabase());
  const stubs = mock.map((type) => ({ provide: type, useValue: stub(type) }));
  const module = await build(file.config, file.database, [
    service,
    ...real,
    ...stubs,
  ]);
  const reading = await build(file.config, file.database, [
    ...readers,
    ...stubs,
  ]);
  return {
    get: (type) => (has(module, type) ? module : reading).get(type),
    database: file.database,
    newTenant: file.newTenant,
    close: async () => {
      await module.close();
      await reading.close();
    },
  };
}

/** Whether the module was given a provider of this type. */
function has(module: TestingModule, type: Type<unknown>): boolean {
  try {
    module.get(type);
    return true;
  } catch {
    return false;
  }
}

/** newMediumService for the tests of a describe block: built before them, closed after. */
export function useMediumService(
  service: Type<unknown>,
  providers: MediumProviders = {},
): MediumService {
  return useShared(
    `the medium ${service.name}`,
    () => newMediumService(service, providers),
    (medium) => medium.close(),
  );
}

/** An instance of `type` whose every method is a jest.fn() answering undefined. */
function stub(type: Type<unknown>): object {
  const methods = new Set<string>();
  for (
    let proto = type.prototype as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  )
    for (const name of Object.getOwnPropertyNames(proto))
      if (
        name !== 'constructor' &&
        typeof Object.getOwnPropertyDescriptor(proto, name)?.value ===
          'function'
      )
        methods.add(name);
  return Object.fromEntries([...methods].map((name) => [name, jest.fn()]));
}
