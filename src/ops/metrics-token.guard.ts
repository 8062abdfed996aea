import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { MetricsTokenRequired } from '../common/errors';
import { AppConfig } from '../config/app-config';

const BEARER = /^bearer (\S+)$/i;
const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * `/metrics` for the holder of METRICS_TOKEN only, when the operator sets
 * one; public otherwise. The token is compared by its digest, in constant
 * time, so that neither its content nor its length leaks through timing.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor({ metrics }: AppConfig) {
    if (metrics.token !== undefined) this.expected = digest(metrics.token);
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) return true;
    const header = context.switchToHttp().getRequest<Request>()
      .headers.authorization;
    const sent = BEARER.exec(header?.trim() ?? '')?.[1];
    if (sent !== undefined && timingSafeEqual(digest(sent), this.expected))
      return true;
    throw new MetricsTokenRequired(header !== undefined);
  }
}
