import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { InvalidRequest } from '../common/errors';
import { pathParam } from '../common/http/request-context';
import { AuthService } from './auth.service';
import { Principal } from './principal';

/** The token from `Authorization: Bearer` or `?access_token=`, resolved per tenant. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly auth: AuthService) {
    super({ passReqToCallback: true });
  }

  validate(req: Request, token: unknown): Promise<Principal> {
    if (typeof token !== 'string')
      throw new InvalidRequest(
        'Send one access token, not several access_token parameters.',
      );
    return this.auth.authenticate(pathParam(req, 'tenant'), token);
  }
}
