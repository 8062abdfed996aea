import { DynamicModule, Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { SecretsModule } from './common/secrets/secrets.module';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { IdentityModule } from './identity/identity.module';
import { TenantsModule } from './tenants/tenants.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** What the command line needs: database, tenants, administration, tokens, webhooks, merges, events; no HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot('command'),
        SecretsModule,
        AuthModule,
        AdminModule,
        TenantsModule,
        IdentityModule,
        EventsModule,
        WebhooksModule,
      ],
    };
  }
}
