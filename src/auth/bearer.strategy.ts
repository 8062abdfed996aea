import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { pathParam } from '../common/http/request-context';
import { AuthService } from './auth.service';
import { bearerToken, queryOf } from '../common/http/credentials';
import { Principal } from '../identity/principal';
import { AuthenticationRequired } from '../common/errors';

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

  /**
   * The caller the request's token names: this strategy run for one
   * request, as `passport.authenticate` runs a single strategy without
   * sessions — `authenticate` on an object that inherits the strategy and
   * carries the request's outcomes (`success`, `fail`, `error`, `redirect`,
   * `pass`); no user is a 401, an error is thrown as it is. The object is
   * one literal with its outcomes: `passport.authenticate` makes it with
   * `Object.create` and then stores five new closures on it, and a closure
   * stored that way keeps the whole request alive through the young
   * generation's collections, so that about nine tenths of what the service
   * promoted to the old generation was Passport's (docs/benchmark.md,
   * "What survives a request").
   */
  principalOf(req: Request): Promise<Principal> {
    return new Promise((resolve, reject) => {
      const noUser = () => reject(new AuthenticationRequired(false));
      const attempt = {
        __proto__: this,
        success: resolve,
        fail: noUser,
        error: reject,
        redirect: noUser,
        pass: noUser,
      } as unknown as BearerStrategy;
      attempt.authenticate(req);
    });
  }
}
