import { Module } from '@nestjs/common';
import { IdentityRepository } from '../../identity/identity.repository';
import { IdentityTags } from '../../identity/identity-tags';
import { GroupsController } from './groups.controller';
import { GroupsRepository } from './groups.repository';
import { GroupsService } from './groups.service';

/** The tenant's roles as SCIM Groups. */
@Module({
  controllers: [GroupsController],
  providers: [
    GroupsService,
    GroupsRepository,
    IdentityTags,
    IdentityRepository,
  ],
  exports: [GroupsService],
})
export class GroupsModule {}
