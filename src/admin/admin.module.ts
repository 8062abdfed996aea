import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EventsModule } from '../events/events.module';
import { AccountProvidersController } from './account-providers.controller';
import { AccountProvidersRepository } from './account-providers.repository';
import { AccountProvidersService } from './account-providers.service';
import { AdminController } from './admin.controller';
import { AdminRepository } from './admin.repository';
import { AdminService } from './admin.service';
import { TokenIssuersController } from './token-issuers.controller';
import { TokenIssuersRepository } from './token-issuers.repository';
import { TokenIssuersService } from './token-issuers.service';

/**
 * The tenant administration API (`/{tenant}/api/admin/v1`): settings,
 * account providers, token issuers, tokens and the audit log. Its services
 * serve the command line too.
 */
@Module({
  imports: [AuthModule, EventsModule],
  controllers: [
    AdminController,
    AccountProvidersController,
    TokenIssuersController,
  ],
  providers: [
    AdminService,
    AdminRepository,
    AccountProvidersService,
    AccountProvidersRepository,
    TokenIssuersService,
    TokenIssuersRepository,
  ],
  exports: [AdminService, AccountProvidersService, TokenIssuersService],
})
export class AdminModule {}
