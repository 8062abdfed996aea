import { Module } from '@nestjs/common';
import { IdentityController } from './identity.controller';
import { IdentityRepository } from './identity.repository';
import { IdentityService } from './identity.service';
import { IdentityTags } from './identity-tags';

@Module({
  controllers: [IdentityController],
  providers: [IdentityService, IdentityRepository, IdentityTags],
  exports: [IdentityService, IdentityRepository, IdentityTags],
})
export class IdentityModule {}
