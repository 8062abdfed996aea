import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { appendEvents } from '../events/events.repository';
import type { IdentityRecord } from './identity.record';

/** Columns a write may change. */
export type IdentityChanges = Partial<
  Omit<IdentityRecord, 'identityId' | 'version' | 'properties'> & {
    properties: Record<string, string>;
  }
>;

const OMIT = { tenantId: true, createdAt: true, updatedAt: true } as const;

export class MergeConflict extends Error {}

export type UpdateOutcome =
  | { outcome: 'missing' }
  | { outcome: 'stale' }
  | { outcome: 'done'; row: IdentityRecord };

@Injectable()
export class IdentityRepository {
  constructor(private readonly database: Database) {}

  findIdentity(
    tenantId: string,
    identityId: string,
  ): Promise<IdentityRecord | null> {
    return this.database.prisma.identity.findUnique({
      where: { tenantId_identityId: { tenantId, identityId } },
      omit: OMIT,
    });
  }

  /**
   * Updates an identity in one transaction: locks its row, hands the
   * current state to `plan`, and writes what the plan returns with a new
   * version (a conditional update on the version read) and its change
   * event. Writers of one identity queue on the row lock instead of
   * retrying, so concurrent updates are applied one after the other.
   */
  updateIdentity(
    tenantId: string,
    identityId: string,
    plan: (current: IdentityRecord) => IdentityChanges | 'unchanged' | 'stale',
  ): Promise<UpdateOutcome> {
    return this.database.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<unknown[]>`
        SELECT 1 FROM identity WHERE tenant_id = ${tenantId} AND identity_id = ${identityId} FOR UPDATE`;
      if (locked.length === 0) return { outcome: 'missing' } as const;
      const current = await tx.identity.findUniqueOrThrow({
        where: { tenantId_identityId: { tenantId, identityId } },
        omit: OMIT,
      });
      const changes = plan(current);
      if (changes === 'stale') return { outcome: 'stale' } as const;
      if (changes === 'unchanged')
        return { outcome: 'done', row: current } as const;
      const [{ version }] = await tx.$queryRaw<
        { version: bigint }[]
      >`SELECT nextval('identity_version_seq') AS version`;
      const [updated] = await tx.identity.updateManyAndReturn({
        where: { tenantId, identityId, version: current.version },
        data: { ...changes, version, updatedAt: new Date() },
        omit: OMIT,
      });
      await appendEvents(tx, tenantId, [
        { identityId, type: 'updated', fields: Object.keys(changes) },
      ]);
      return { outcome: 'done', row: updated } as const;
    });
  }

  /**
   * Deletes the identity (its accounts, friendships, role assignments and
   * tokens cascade) with its change event, in one transaction; only at
   * `expectedVersion` when one is given. False when nothing was deleted.
   */
  deleteIdentity(
    tenantId: string,
    identityId: string,
    expectedVersion?: bigint,
  ): Promise<boolean> {
    return this.database.prisma.$transaction(async (tx) => {
      const { count } = await tx.identity.deleteMany({
        where: {
          tenantId,
          identityId,
          ...(expectedVersion === undefined
            ? {}
            : { version: expectedVersion }),
        },
      });
      if (count)
        await appendEvents(tx, tenantId, [
          { identityId, type: 'deleted', fields: [] },
        ]);
      return count > 0;
    });
  }

  /**
   * Merges identity `fromId` into `intoId` in one transaction: accounts,
   * friends and roles move without duplicates, `fromId` and its old ids join
   * `oldIdentityIds`, and `fromId` is deleted (its tokens with it). Throws
   * MergeConflict when it would break a provider's one-account rule.
   */
  mergeIdentities(
    tenantId: string,
    intoId: string,
    fromId: string,
  ): Promise<IdentityRecord> {
    return this.database.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<
        { identityId: string; oldIdentityIds: string[] }[]
      >`
        SELECT identity_id AS "identityId", old_identity_ids AS "oldIdentityIds" FROM identity
         WHERE tenant_id = ${tenantId} AND identity_id IN (${intoId}, ${fromId})
         ORDER BY identity_id FOR UPDATE`;
      const into = rows.find((r) => r.identityId === intoId);
      const from = rows.find((r) => r.identityId === fromId);
      if (!into || !from)
        throw new MergeConflict(
          `No identity "${into ? fromId : intoId}" in tenant "${tenantId}".`,
        );
      const clashes = await tx.$queryRaw<{ providerId: string }[]>`
        SELECT DISTINCT b.account_provider_id AS "providerId"
          FROM account b
          JOIN account_provider p ON p.tenant_id = b.tenant_id AND p.account_provider_id = b.account_provider_id
          JOIN account a ON a.tenant_id = b.tenant_id AND a.account_provider_id = b.account_provider_id
         WHERE b.tenant_id = ${tenantId} AND b.identity_id = ${fromId} AND a.identity_id = ${intoId}
           AND NOT p.allows_multiple_accounts
         ORDER BY 1`;
      if (clashes.length)
        throw new MergeConflict(
          `Both identities have an account at ${clashes.map((c) => `"${c.providerId}"`).join(', ')}, which allow${clashes.length > 1 ? '' : 's'} one account per identity; remove one of them first.`,
        );
      const accounts = await tx.$executeRaw`
        UPDATE account SET identity_id = ${intoId} WHERE tenant_id = ${tenantId} AND identity_id = ${fromId}`;
      const friends = await tx.$executeRaw`
        INSERT INTO friendship (tenant_id, identity_id, friend_id)
        SELECT tenant_id, ${intoId}, friend_id FROM friendship
         WHERE tenant_id = ${tenantId} AND identity_id = ${fromId} AND friend_id <> ${intoId}
        UNION ALL
        SELECT tenant_id, friend_id, ${intoId} FROM friendship
         WHERE tenant_id = ${tenantId} AND identity_id = ${fromId} AND friend_id <> ${intoId}
        ON CONFLICT DO NOTHING`;
      const roles = await tx.$executeRaw`
        INSERT INTO role_assignment (tenant_id, identity_id, role_name)
        SELECT tenant_id, ${intoId}, role_name FROM role_assignment
         WHERE tenant_id = ${tenantId} AND identity_id = ${fromId}
        ON CONFLICT DO NOTHING`;
      const oldIdentityIds = [
        ...new Set([...into.oldIdentityIds, fromId, ...from.oldIdentityIds]),
      ];
      const [{ version }] = await tx.$queryRaw<
        { version: bigint }[]
      >`SELECT nextval('identity_version_seq') AS version`;
      const merged = await tx.identity.update({
        where: { tenantId_identityId: { tenantId, identityId: intoId } },
        data: { oldIdentityIds, version, updatedAt: new Date() },
        omit: OMIT,
      });
      await tx.identity.delete({
        where: { tenantId_identityId: { tenantId, identityId: fromId } },
      });
      const moved = { accounts, friends, roles };
      await appendEvents(tx, tenantId, [
        {
          identityId: intoId,
          type: 'merged',
          fields: [
            ...Object.keys(moved).filter(
              (k) => moved[k as keyof typeof moved] > 0,
            ),
            'oldIdentityIds',
          ],
          relatedIdentityId: fromId,
        },
        {
          identityId: fromId,
          type: 'deleted',
          fields: [],
          relatedIdentityId: intoId,
        },
      ]);
      return merged;
    });
  }
}
