import { Module } from '@nestjs/common';
import { IdentityModule } from '../../identity/identity.module';
import { GroupsController } from './groups.controller';
import { GroupsRepository } from './groups.repository';
import { GroupsService } from './groups.service';

/** The tenant's roles as SCIM Groups, over the one identity repository and tag keys. */
@Module({
  imports: [IdentityModule],
  controllers: [GroupsController],
  providers: [GroupsService, GroupsRepository],
  exports: [GroupsService],
})
export class GroupsModule {}
