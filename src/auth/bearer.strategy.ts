import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { pathParam } from '../common/http/request-context';
import { AuthService } from './auth.service';
import { bearerToken, queryOf } from '../common/http/credentials';
import { Principal } from '../identity/principal';

/** What the strategy reads of a request: the token's places and the tenant. */
type TokenRequest = Pick<Request, 'headers' | 'query' | 'params'>;

/** The token from `Authorization: Bearer` or `?access_token=`, resolved per tenant. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly auth: AuthService) {
    super({ passReqToCallback: true });
  }

  /**
   * Two tokens (two Authorization headers, the header beside an
   * access_token parameter, two parameters) or a malformed header are
   * refused first (400). The strategy then reads the headers and the query
   * only: RFC 6750 allows a token in a body only when it is form-encoded,
   * and this API takes JSON, so the body is hidden from it: the strategy
   * sees a view of the request without one. (A view rather than an object
   * inheriting from the request: an object that becomes a prototype loses
   * V8's fast property access, and the request is read on every step
   * after this one.)
   */
  authenticate(req: Request, options?: object): void {
    bearerToken(req);
    const view: TokenRequest = {
      headers: req.headers,
      query: queryOf(req) as Request['query'],
      params: req.params,
    };
    super.authenticate(view as Request, options);
  }

  validate(req: TokenRequest, token: string): Promise<Principal> {
    return this.auth.authenticate(pathParam(req, 'tenant'), token);
  }
}
