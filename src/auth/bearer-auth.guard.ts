import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
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
 * it is marked `@Access('public')`.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {
    super();
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<AccessRule | undefined>(
      ACCESS_RULE,
      context.getHandler(),
    );
    if (rule === 'public') return true;
    const http = context.switchToHttp();
    this.limiter.refuseWhileFailuresSpent(
      http.getRequest<Request>(),
      http.getResponse<Response>(),
    );
    try {
      const allowed = (await super.canActivate(context)) as boolean;
      this.limiter.rememberValid(http.getRequest<Request>());
      return allowed;
    } catch (error) {
      // Another tenant's administration does not exist for its admins.
      if (
        rule !== undefined &&
        ADMIN_RULES.has(rule) &&
        error instanceof OtherTenantAdminToken
      )
        throw new RouteNotFound(http.getRequest<Request>().path);
      // A token that fails also costs its client address (a 429 past it).
      if (error instanceof AuthenticationRequired && error.tokenSent) {
        await this.limiter.chargeFailedAuthentication(
          http.getRequest<Request>(),
          http.getResponse<Response>(),
        );
      }
      throw error;
    }
  }

  /** No token at all: passport found nothing to verify. */
  handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (user) return user;
    throw new AuthenticationRequired(false);
  }
}
