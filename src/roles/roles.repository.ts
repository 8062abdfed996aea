import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Page } from '../common/pagination';

@Injectable()
export class RolesRepository {
  constructor(private readonly database: Database) {}

  /** Role names byte by byte, one more than the page's limit, after its cursor. */
  async findRoleNames(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<string[]> {
    const rows = await this.database.prisma.roleAssignment.findMany({
      where: {
        tenantId,
        identityId,
        ...(page.after ? { roleName: { gt: page.after[0] } } : {}),
      },
      select: { roleName: true },
      orderBy: { roleName: 'asc' },
      take: page.limit === undefined ? undefined : page.limit + 1,
    });
    return rows.map((row) => row.roleName);
  }
}
