import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerStrategy } from './bearer.strategy';
import { IdentityAccessGuard } from './identity-access.guard';

/** Authentication and authorization; both guards apply to every route. */
@Module({
  imports: [PassportModule],
  providers: [
    AuthRepository,
    AuthService,
    BearerStrategy,
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: IdentityAccessGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}
