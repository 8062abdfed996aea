import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { AuthenticationRequired, InvalidRequest } from '../common/errors';
import { pathParam, requestState } from '../common/http/request-context';
import { ACCESS_RULE, AccessRule } from './access.decorator';
import { realmOf } from './auth.service';
import { Principal } from './principal';

/**
 * The global authentication guard: every route needs a valid token unless
 * it is marked `@Access('public')`.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<AccessRule | undefined>(
      ACCESS_RULE,
      context.getHandler(),
    );
    if (rule === 'public') return true;
    const view = this.getRequest(context);
    await super.canActivate(context);
    requestState(context.switchToHttp().getRequest<Request>()).principal =
      view.user as Principal;
    return true;
  }

  /**
   * Passport sees the headers, query and path only: RFC 6750 allows a body
   * token in form-encoded bodies alone, and this API takes JSON.
   */
  getRequest(context: ExecutionContext) {
    const req = context
      .switchToHttp()
      .getRequest<Request & { bearerView?: object }>();
    req.bearerView ??= {
      headers: req.headers,
      query: req.query,
      params: req.params,
    };
    return req.bearerView as { user?: unknown };
  }

  handleRequest<T>(
    err: unknown,
    user: T,
    _info: unknown,
    context: ExecutionContext,
    status?: unknown,
  ): T {
    if (err) throw err;
    if (user) return user;
    const req = context.switchToHttp().getRequest<Request>();
    if (status === 400)
      throw new InvalidRequest(
        req.headers.authorization && req.query.access_token
          ? 'Send the access token either in the Authorization header or in access_token, not both.'
          : 'The Authorization header must be of the form "Bearer <token>".',
      );
    throw new AuthenticationRequired(realmOf(pathParam(req, 'tenant')), false);
  }
}
