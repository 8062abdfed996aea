import { sql } from 'kysely';
import type { StatementRunner } from './database';
import { builder, statement } from './sql';

/** First key of the advisory lock that queues imports and admin changes of one tenant. */
export const TENANT_SETTINGS_LOCK = 0x1d3f;

/**
 * A transaction-scoped advisory lock of one tenant: `key` names what it
 * orders, the tenant's id (hashed) whose. Held until the transaction ends.
 */
const TENANT_LOCK = statement((p: { key: number; tenantId: string }) =>
  builder
    .selectFrom(
      sql`pg_advisory_xact_lock(${p.key}::int, hashtext(${p.tenantId}))`.as(
        'lock',
      ),
    )
    .select(sql<number>`1`.as('locked')),
);

/** Takes the tenant's lock `key` in the transaction `tx`, waiting for whoever holds it. */
export async function lockTenant(
  tx: StatementRunner,
  key: number,
  tenantId: string,
): Promise<void> {
  await tx.rows(TENANT_LOCK, { key, tenantId });
}

/**
 * Queues the transaction behind every other import or admin change of the
 * tenant: a provider added while an import replaces the tenant is added
 * before or after it, never lost in between.
 */
export function lockTenantSettings(
  tx: StatementRunner,
  tenantId: string,
): Promise<void> {
  return lockTenant(tx, TENANT_SETTINGS_LOCK, tenantId);
}
