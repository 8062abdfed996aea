import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { FriendsModule } from './friends/friends.module';
import { IdentityModule } from './identity/identity.module';
import { RolesModule } from './roles/roles.module';
import { TenantsModule } from './tenants/tenants.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        AuthModule,
        TenantsModule,
        // Fixed segments (accounts, friends, roles) register before `:id`.
        AccountsModule,
        FriendsModule,
        RolesModule,
        IdentityModule,
      ],
    };
  }
}
