import { Injectable } from '@nestjs/common';
import { Page } from '../common/pagination';
import { RoleResponse } from './roles.dto';
import { RolesRepository } from './roles.repository';

@Injectable()
export class RolesService {
  constructor(private readonly roles: RolesRepository) {}

  async listRoles(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<RoleResponse[]> {
    return (await this.roles.findRoleNames(tenantId, identityId, page)).map(
      (name) => ({ name }),
    );
  }
}

/** The sort key a cursor carries. */
export const roleKey = (role: RoleResponse) => [role.name];
