import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { BearerStrategy } from './bearer.strategy';
import { RateLimiter } from '../ops/rate-limit/rate-limiter';
import {
  AuthenticationRequired,
  OtherTenantAdminToken,
  RouteNotFound,
} from '../common/errors';
import {
  ACCESS_RULE,
  AccessRule,
  ADMIN_RULES,
} from '../common/http/access.decorator';

/**
 * The global authentication guard: every route needs a valid token unless
 * it is marked `@Access('public')`. The token is Passport's bearer
 * strategy's to read and validate (BearerStrategy.principalOf); the caller
 * it names is the request's `user`.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    private readonly strategy: BearerStrategy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<AccessRule | undefined>(
      ACCESS_RULE,
      context.getHandler(),
    );
    if (rule === 'public') return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    this.limiter.refuseWhileFailuresSpent(req, res);
    try {
      req.user = await this.strategy.principalOf(req);
      this.limiter.rememberValid(req);
      return true;
    } catch (error) {
      // Another tenant's administration does not exist for its admins.
      if (
        rule !== undefined &&
        ADMIN_RULES.has(rule) &&
        error instanceof OtherTenantAdminToken
      )
        throw new RouteNotFound(req.path);
      // A token that fails also costs its client address (a 429 past it).
      if (error instanceof AuthenticationRequired && error.tokenSent)
        await this.limiter.chargeFailedAuthentication(req, res);
      throw error;
    }
  }
}
