import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { BearerStrategy } from './bearer.strategy';
import { JwtVerifier } from './jwt-verifier';

/** Tokens, their authentication and the access facts the guards ask for. */
@Module({
  imports: [PassportModule],
  providers: [AuthRepository, AuthService, BearerStrategy, JwtVerifier],
  exports: [AuthService, AuthRepository],
})
export class AuthModule {}
