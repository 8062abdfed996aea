import { TestApp } from './test-app';

/**
 * Every row of every table, to prove a failed write changed nothing (a
 * token's last use aside: bookkeeping of reads, not data).
 */
export async function snapshot(t: TestApp) {
  const p = t.database.prisma;
  return Promise.all([
    p.tenant.findMany({ orderBy: { id: 'asc' } }),
    p.accountProvider.findMany({
      orderBy: [{ tenantId: 'asc' }, { position: 'asc' }],
    }),
    p.identity.findMany({
      orderBy: [{ tenantId: 'asc' }, { identityId: 'asc' }],
    }),
    p.account.findMany({
      orderBy: [{ tenantId: 'asc' }, { accountId: 'asc' }],
    }),
    p.friendship.findMany({
      orderBy: [
        { tenantId: 'asc' },
        { identityId: 'asc' },
        { friendId: 'asc' },
      ],
    }),
    p.roleAssignment.findMany({
      orderBy: [
        { tenantId: 'asc' },
        { identityId: 'asc' },
        { roleName: 'asc' },
      ],
    }),
    p.token.findMany({ orderBy: { id: 'asc' }, omit: { lastUsedAt: true } }),
    p.identityEvent.findMany({ orderBy: { id: 'asc' } }),
  ]);
}
