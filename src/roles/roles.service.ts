import { Injectable } from '@nestjs/common';
import { Collection, Page } from '../common/pagination';
import { RoleResponse } from './roles.dto';
import { RolesRepository } from './roles.repository';

@Injectable()
export class RolesService {
  constructor(private readonly roles: RolesRepository) {}

  async listRoles(
    tenantId: string,
    identityId: string,
    page: Page,
  ): Promise<Collection<RoleResponse[]>> {
    const { items, next } = await this.roles.findRoleNames(
      tenantId,
      identityId,
      page,
    );
    return { items: items.map((name) => ({ name })), next };
  }
}

/** Roles are ordered by name; a cursor carries the last one seen. */
export const ROLES_ORDER = ['name'] as const;
