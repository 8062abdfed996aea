import { ensurePostgresTemplate } from './templates';

/** Global setup of the PostgreSQL e2e project: the template database. */
export default async function postgresSetup(): Promise<void> {
  await ensurePostgresTemplate();
}
