import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import type { Response } from 'express';
import { Observable } from 'rxjs';
import { SCIM_CONTENT_TYPE } from '../common/http/scim-error';

/** Answers of SCIM routes are application/scim+json (RFC 7644 §3.1). */
@Injectable()
export class ScimContentType implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    context
      .switchToHttp()
      .getResponse<Response>()
      .setHeader('Content-Type', SCIM_CONTENT_TYPE);
    return next.handle();
  }
}
