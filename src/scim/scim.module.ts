import { Module } from '@nestjs/common';
import { GroupsModule } from './groups/groups.module';
import { ScimDiscoveryController } from './scim-discovery.controller';
import { ScimDiscoveryService } from './scim-discovery.service';

/** The tenant's SCIM 2.0 service provider (docs/scim.md). */
@Module({
  imports: [GroupsModule],
  controllers: [ScimDiscoveryController],
  providers: [ScimDiscoveryService],
})
export class ScimModule {}
