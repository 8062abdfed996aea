import type { Prisma } from '../generated/prisma/client';

export type Transaction = Prisma.TransactionClient;

/** First key of the advisory lock that queues imports and admin changes of one tenant. */
export const TENANT_SETTINGS_LOCK = 0x1d3f;

/**
 * Queues the transaction behind every other import or admin change of the
 * tenant: a provider added while an import replaces the tenant is added
 * before or after it, never lost in between.
 */
export async function lockTenantSettings(
  tx: Pick<Transaction, '$executeRawUnsafe'>,
  tenantId: string,
): Promise<void> {
  await tx.$executeRawUnsafe(
    'SELECT pg_advisory_xact_lock($1::int, hashtext($2))',
    TENANT_SETTINGS_LOCK,
    tenantId,
  );
}
