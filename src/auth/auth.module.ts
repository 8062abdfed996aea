import { Module } from '@nestjs/common';
import { AccessRepository } from './access.repository';
import { AuthService } from './auth.service';
import { BearerStrategy } from './bearer.strategy';
import { IssuerKeys } from './issuer-keys';
import { JwtVerifier } from './jwt-verifier';
import { SignInRepository } from './sign-in.repository';
import { SignInService } from './sign-in.service';
import { TokenRepository } from './token.repository';
import { TokensService } from './tokens.service';

/** Tokens, their authentication and the access facts the guards ask for. */
@Module({
  providers: [
    AccessRepository,
    AuthService,
    BearerStrategy,
    IssuerKeys,
    JwtVerifier,
    SignInRepository,
    SignInService,
    TokenRepository,
    TokensService,
  ],
  exports: [
    AuthService,
    AccessRepository,
    BearerStrategy,
    JwtVerifier,
    TokensService,
  ],
})
export class AuthModule {}
