import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { builder, statement, StatementRow } from '../database/sql';
import { appendAdminEvent } from '../events/events.repository';

/** A tenant's settings as the admin API shows them. */
/** The tenant's settings, its row locked for the transaction. */
const LOCK_SETTINGS = statement((p: { tenantId: string }) =>
  builder
    .selectFrom('tenant')
    .select([
      'id',
      'name',
      'admin_roles as adminRoles',
      'link_return_urls as linkReturnUrls',
    ])
    .where('id', '=', p.tenantId)
    .forUpdate(),
);

export type TenantSettings = StatementRow<typeof LOCK_SETTINGS>;

export type SettingsChanges = Partial<Omit<TenantSettings, 'id'>>;

/**
 * The settings a change changed, before and after: an audit log entry
 * holds these only, not the ones that stayed.
 */
function changedKeys(before: TenantSettings, after: TenantSettings) {
  const keys = (Object.keys(after) as (keyof TenantSettings)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  const pick = (settings: TenantSettings) =>
    Object.fromEntries(keys.map((key) => [key, settings[key]]));
  return { before: pick(before), after: pick(after) };
}

/** A tenant's settings, read and changed with their audit log entries. */
@Injectable()
export class AdminRepository {
  constructor(private readonly database: Database) {}

  findSettings(tenantId: string): Promise<TenantSettings | null> {
    return this.database.models.tenant.findUnique({
      where: { id: tenantId },
      select: {
        id: true,
        name: true,
        adminRoles: true,
        linkReturnUrls: true,
      },
    });
  }

  /**
   * Changes the settings as `plan` decides from the current ones, locked,
   * with an audit log entry by `actor` holding the keys that changed,
   * before and after, in one transaction. The settings as they are afterwards, or `stale` (the
   * plan's refusal), or null when the tenant is gone.
   */
  updateSettings(
    tenantId: string,
    plan: (current: TenantSettings) => SettingsChanges | 'stale',
    actor: string,
  ): Promise<TenantSettings | 'stale' | null> {
    return this.database.transaction(async (tx) => {
      const [current] = await tx.rows(LOCK_SETTINGS, { tenantId });
      if (!current) return null;
      const changes = plan(current);
      if (changes === 'stale') return 'stale';
      const after = { ...current, ...changes };
      if (JSON.stringify(after) === JSON.stringify(current)) return current;
      await tx.models.tenant.update({ where: { id: tenantId }, data: changes });
      await appendAdminEvent(tx, tenantId, {
        actor,
        action: 'tenant.updated',
        target: 'tenant',
        ...changedKeys(current, after),
      });
      return after;
    });
  }
}
