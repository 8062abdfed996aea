import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';

/** A request and the response being made for it. */
export interface Exchange {
  readonly req: Request;
  readonly res: Response;
}

/**
 * The request and its response, for a handler that sets its answer's
 * headers (ETag, Location, Link) or answers 304. Nest still sends what the
 * handler returns and the exception filter still answers errors, as with
 * `@Res({ passthrough: true })`.
 */
export const Http = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Exchange => {
    const http = context.switchToHttp();
    return {
      req: http.getRequest<Request>(),
      res: http.getResponse<Response>(),
    };
  },
);
