import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { builder, statement } from '../database/sql';
import { Collection, Page, pageFrom } from '../common/pagination';

interface RoleNamesParams {
  tenantId: string;
  identityId: string;
  after: string;
  limit: number;
}

/**
 * The role names of an identity, byte by byte, after a cursor and up to a
 * limit when given: four statements, so that each gets a plan of its own.
 */
const roleNames = (after: boolean, limited: boolean) =>
  statement((p: RoleNamesParams) =>
    builder
      .selectFrom('role_assignment')
      .select('role_name as roleName')
      .where('tenant_id', '=', p.tenantId)
      .where('identity_id', '=', p.identityId)
      .$if(after, (q) => q.where('role_name', '>', p.after))
      .orderBy('role_name')
      .$if(limited, (q) => q.limit(p.limit)),
  );
const ROLE_NAMES = [
  [roleNames(false, false), roleNames(false, true)],
  [roleNames(true, false), roleNames(true, true)],
];

@Injectable()
export class RolesRepository {
  constructor(private readonly database: Database) {}

  /** A page of role names, byte by byte, after the page's cursor. */
  async findRoleNames(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<Collection<string[]>> {
    const limited = page.limit !== undefined;
    const rows = await this.database.read.rows(
      ROLE_NAMES[page.after ? 1 : 0][limited ? 1 : 0],
      {
        tenantId,
        identityId,
        after: page.after?.[0] ?? '',
        limit: (page.limit ?? 0) + 1,
      },
    );
    return pageFrom(
      rows.map((row) => row.roleName),
      page,
      (name) => [name],
    );
  }
}
