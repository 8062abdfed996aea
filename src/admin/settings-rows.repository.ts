import type { Database } from '../database/database';
import type { Transaction } from '../database/database';
import { lockTenantSettings } from '../database/tenant-lock';
import {
  type AdminAction,
  appendAdminEvent,
} from '../events/events.repository';

/** Why a change of a settings row was not made; the service says it. */
interface Refusal {
  refused: string;
}

/** The page of a tenant's rows in their order, after position `after`. */
export const afterPosition = (
  tenantId: string,
  after: number | undefined,
  limit: number,
) => ({
  where: {
    tenantId,
    ...(after !== undefined && { position: { gt: after } }),
  },
  orderBy: { position: 'asc' as const },
  take: limit,
});

/** A row as the audit log holds it, by default: all but its place in the tenant's order. */
const withoutPosition = (row: object): object => {
  const { position: _p, ...settings } = row as { position?: unknown };
  return settings;
};

/**
 * The rows of one kind of a tenant's settings (its account providers, its
 * token issuers, its webhook subscriptions), changed one at a time: each
 * change in one transaction after the tenant's settings lock, with the row
 * locked and its audit log entry, which holds the row by its settings' API
 * names.
 */
export class SettingsRows<Row extends object> {
  constructor(
    private readonly database: Database,
    /** The audit log's name of the kind: a row's target is `<kind>:<id>`. */
    private readonly kind: 'provider' | 'issuer' | 'webhook',
    /** The tenant's row of that id, locked for the transaction; null when none. */
    private readonly lock: (
      tx: Transaction,
      tenantId: string,
      id: string,
    ) => Promise<Row | null>,
    /** What the audit log holds of a row, in an entry of `action`. */
    private readonly describe: (
      row: Row,
      action: AdminAction,
    ) => object = withoutPosition,
  ) {}

  /**
   * Adds the row `write` stores, unless the tenant has one of that id or
   * `refuse`, asked first, finds something against it.
   */
  create<R extends Refusal = never>(
    tenantId: string,
    id: string,
    actor: string,
    write: (tx: Transaction) => Promise<Row>,
    refuse?: (tx: Transaction) => Promise<R | undefined>,
  ): Promise<Row | NoInfer<R> | { refused: 'exists' }> {
    return this.database.transaction(async (tx) => {
      await lockTenantSettings(tx, tenantId);
      if (await this.lock(tx, tenantId, id))
        return { refused: 'exists' as const };
      const refusal = await refuse?.(tx);
      if (refusal) return refusal;
      const row = await write(tx);
      await this.audit(tx, tenantId, actor, id, `${this.kind}.created`, {
        after: row,
      });
      return row;
    });
  }

  /**
   * Replaces the row's settings with `settings` (or those it makes of the
   * current row) when `check` passes on the current ones and `refuse`,
   * asked first, finds nothing against them; `write` stores them, unless
   * they are the same. The row afterwards, or null when there is none.
   */
  replace<R extends Refusal = never>(
    tenantId: string,
    id: string,
    check: (current: Row) => boolean,
    actor: string,
    settings: Partial<Row> | ((current: Row) => Partial<Row>),
    write: (tx: Transaction) => Promise<unknown>,
    refuse?: (tx: Transaction, current: Row) => Promise<R | undefined>,
  ): Promise<Row | NoInfer<R> | { refused: 'stale' } | null> {
    return this.change(tenantId, id, check, async (current, tx) => {
      const refusal = await refuse?.(tx, current);
      if (refusal) return refusal;
      const after = {
        ...current,
        ...(typeof settings === 'function' ? settings(current) : settings),
      };
      if (JSON.stringify(after) === JSON.stringify(current)) return current;
      await write(tx);
      await this.audit(tx, tenantId, actor, id, `${this.kind}.updated`, {
        before: current,
        after,
      });
      return after;
    });
  }

  /**
   * Changes the row as `write` does, when `check` passes on the current
   * one, and logs it as `action` with the row before and the row after,
   * which `write` answers; that row, or null when there is none.
   */
  update(
    tenantId: string,
    id: string,
    check: (current: Row) => boolean,
    actor: string,
    action: AdminAction,
    write: (tx: Transaction, current: Row) => Promise<Row>,
  ): Promise<Row | { refused: 'stale' } | null> {
    return this.change(tenantId, id, check, async (current, tx) => {
      const after = await write(tx, current);
      await this.audit(tx, tenantId, actor, id, action, {
        before: current,
        after,
      });
      return after;
    });
  }

  /**
   * Removes the row as `write` does, when `check` passes on it and
   * `refuse`, asked first, finds nothing against it; null when there is
   * none. What `write` answers.
   */
  remove<T, R extends Refusal = never>(
    tenantId: string,
    id: string,
    check: (current: Row) => boolean,
    actor: string,
    write: (tx: Transaction, current: Row) => Promise<T>,
    refuse?: (tx: Transaction) => Promise<R | undefined>,
  ): Promise<T | NoInfer<R> | { refused: 'stale' } | null> {
    return this.change(tenantId, id, check, async (current, tx) => {
      const refusal = await refuse?.(tx);
      if (refusal) return refusal;
      const removed = await write(tx, current);
      await this.audit(tx, tenantId, actor, id, `${this.kind}.deleted`, {
        before: current,
      });
      return removed;
    });
  }

  /** `change` of the row, locked, when there is one and `check` passes on it. */
  private change<T>(
    tenantId: string,
    id: string,
    check: (current: Row) => boolean,
    change: (current: Row, tx: Transaction) => Promise<T>,
  ): Promise<T | { refused: 'stale' } | null> {
    return this.database.transaction(async (tx) => {
      await lockTenantSettings(tx, tenantId);
      const current = await this.lock(tx, tenantId, id);
      if (!current) return null;
      if (!check(current)) return { refused: 'stale' as const };
      return change(current, tx);
    });
  }

  private audit(
    tx: Transaction,
    tenantId: string,
    actor: string,
    id: string,
    action: AdminAction,
    rows: { before?: Row; after?: Row },
  ): Promise<void> {
    const described = (row?: Row) => row && this.describe(row, action);
    return appendAdminEvent(tx, tenantId, {
      actor,
      action,
      target: `${this.kind}:${id}`,
      before: described(rows.before),
      after: described(rows.after),
    });
  }
}
