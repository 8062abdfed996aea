import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { TenantData } from './tenant-data';

/** Long enough for the largest imports; the default is five seconds. */
const IMPORT_TIMEOUT_MS = 30 * 60 * 1000;

@Injectable()
export class TenantsRepository {
  constructor(private readonly database: Database) {}

  async exists(tenantId: string): Promise<boolean> {
    return (
      (await this.database.prisma.tenant.count({ where: { id: tenantId } })) > 0
    );
  }

  async countTenants(): Promise<number> {
    return this.database.prisma.tenant.count();
  }

  /**
   * Writes a whole tenant in one transaction. With `replace`, the tenant's
   * old data is removed first (cascading from the tenant row); without it an
   * existing tenant makes the insert fail and nothing is written.
   */
  async write(data: TenantData, replace: boolean): Promise<void> {
    const tenantId = data.tenant.id;
    await this.database.prisma.$transaction(
      async (tx) => {
        if (replace) await tx.tenant.deleteMany({ where: { id: tenantId } });
        await tx.tenant.create({ data: data.tenant });
        await tx.accountProvider.createMany({
          data: data.providers.map((p) => ({ tenantId, ...p })),
        });
        await tx.identity.createMany({
          data: data.identities.map((i) => ({ tenantId, ...i })),
        });
        await tx.role.createMany({
          data: data.roles.map((name) => ({ tenantId, name })),
        });
        await tx.roleAssignment.createMany({
          data: data.roleAssignments.map((a) => ({ tenantId, ...a })),
        });
        await tx.account.createMany({
          data: data.accounts.map((a) => ({ tenantId, ...a })),
        });
        await tx.friendship.createMany({
          data: data.friendships.map((f) => ({ tenantId, ...f })),
        });
        await tx.token.createMany({
          data: data.tokens.map((t) => ({ tenantId, ...t })),
        });
      },
      { timeout: IMPORT_TIMEOUT_MS, maxWait: IMPORT_TIMEOUT_MS },
    );
  }

  /** Everything of a tenant except its tokens, or undefined when unknown. */
  async read(
    tenantId: string,
  ): Promise<Omit<TenantData, 'tokens'> | undefined> {
    const prisma = this.database.prisma;
    const tenant = await prisma.tenant.findUnique({
      where: { id: tenantId },
      select: { id: true, name: true, adminRoles: true },
    });
    if (!tenant) return undefined;
    const where = { tenantId };
    const [
      providers,
      identities,
      accounts,
      friendships,
      roles,
      roleAssignments,
    ] = await Promise.all([
      prisma.accountProvider.findMany({
        where,
        orderBy: { position: 'asc' },
        omit: { tenantId: true },
      }),
      prisma.identity.findMany({
        where,
        orderBy: { identityId: 'asc' },
        omit: {
          tenantId: true,
          version: true,
          createdAt: true,
          updatedAt: true,
        },
      }),
      prisma.account.findMany({
        where,
        orderBy: [{ provider: { position: 'asc' } }, { accountId: 'asc' }],
        omit: { tenantId: true },
      }),
      prisma.friendship.findMany({
        where,
        orderBy: [{ identityId: 'asc' }, { friendId: 'asc' }],
        omit: { tenantId: true },
      }),
      prisma.role.findMany({
        where,
        orderBy: { name: 'asc' },
        select: { name: true },
      }),
      prisma.roleAssignment.findMany({
        where,
        orderBy: [{ identityId: 'asc' }, { roleName: 'asc' }],
        omit: { tenantId: true },
      }),
    ]);
    return {
      tenant,
      providers,
      identities: identities.map((i) => ({
        ...i,
        properties: i.properties as Record<string, string>,
      })),
      accounts,
      friendships,
      roles: roles.map((r) => r.name),
      roleAssignments,
    };
  }
}
