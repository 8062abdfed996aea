import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { EventsModule } from '../events/events.module';
import { FriendsModule } from '../friends/friends.module';
import { IdentityModule } from '../identity/identity.module';
import { RolesModule } from '../roles/roles.module';
import { AdminIdentitiesController } from './admin-identities.controller';
import { AdminIdentitiesRepository } from './admin-identities.repository';
import { AdminIdentitiesService } from './admin-identities.service';

/**
 * The tenant's identities in the administration API
 * (`/{tenant}/api/admin/v1/identities`): a search, and the identity API's
 * reads of one identity, by the identity API's own services.
 */
@Module({
  imports: [
    IdentityModule,
    AccountsModule,
    FriendsModule,
    RolesModule,
    EventsModule,
  ],
  controllers: [AdminIdentitiesController],
  providers: [AdminIdentitiesService, AdminIdentitiesRepository],
})
export class AdminIdentitiesModule {}
