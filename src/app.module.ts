import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { BearerAuthGuard } from './auth/bearer-auth.guard';
import { IdentityAccessGuard } from './auth/identity-access.guard';
import { RouteTable } from './common/http/route-table';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import { AdminModule } from './admin/admin.module';
import { AdminIdentitiesModule } from './admin-identities/admin-identities.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { SecretsModule } from './common/secrets/secrets.module';
import { DatabaseModule } from './database/database.module';
import { ReadRoutingModule } from './ops/read-routing/read-routing.module';
import { FriendsModule } from './friends/friends.module';
import { IdentityModule } from './identity/identity.module';
import { OpsModule } from './ops/ops.module';
import { RolesModule } from './roles/roles.module';
import { ScimModule } from './scim/scim.module';
import { TenantsModule } from './tenants/tenants.module';
import { WebhookDeliveryModule } from './webhooks/webhook-delivery.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DiscoveryModule,
        DatabaseModule.forRoot('service'),
        SecretsModule,
        OpsModule,
        AuthModule,
        TenantsModule,
        // Fixed segments (accounts, friends, roles) register before `:id`.
        AccountsModule,
        FriendsModule,
        RolesModule,
        IdentityModule,
        ScimModule,
        AdminModule,
        AdminIdentitiesModule,
        WebhooksModule,
        WebhookDeliveryModule,
        ...(config.databaseReplicaUrls.length ? [ReadRoutingModule] : []),
      ],
      providers: [
        RouteTable,
        // Every route, in this order: authentication, authorization (the
        // rate limit is charged before routing, in app.setup.ts).
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_GUARD, useClass: IdentityAccessGuard },
      ],
    };
  }
}
