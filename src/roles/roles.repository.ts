import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { Prisma } from '../generated/prisma/client';
import { Collection, Page, pageFrom } from '../common/pagination';

@Injectable()
export class RolesRepository {
  constructor(private readonly database: Database) {}

  /**
   * A page of role names, byte by byte, after the page's cursor. The
   * cursor and the limit add their clauses only when given, so that each
   * of the four statements gets a plan of its own.
   */
  async findRoleNames(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<Collection<string[]>> {
    const rows = await this.database.query<{ roleName: string }>(Prisma.sql`
      SELECT role_name AS "roleName" FROM role_assignment
       WHERE tenant_id = ${tenantId} AND identity_id = ${identityId}
             ${page.after ? Prisma.sql`AND role_name > ${page.after[0]}` : Prisma.empty}
       ORDER BY role_name
             ${page.limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${page.limit + 1}`}`);
    return pageFrom(
      rows.map((row) => row.roleName),
      page,
      (name) => [name],
    );
  }
}
