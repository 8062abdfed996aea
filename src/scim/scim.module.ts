import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { GroupsModule } from './groups/groups.module';
import { ScimDiscoveryController } from './scim-discovery.controller';
import { ScimDiscoveryService } from './scim-discovery.service';
import { ScimSearchController } from './scim-search.controller';
import { ScimUsersController } from './scim-users.controller';
import { ScimUsersRepository } from './scim-users.repository';
import { ScimUsersService } from './scim-users.service';

/** The tenant's SCIM 2.0 service provider (docs/scim.md). */
@Module({
  imports: [IdentityModule, GroupsModule],
  controllers: [
    ScimDiscoveryController,
    ScimUsersController,
    ScimSearchController,
  ],
  providers: [ScimDiscoveryService, ScimUsersRepository, ScimUsersService],
})
export class ScimModule {}
