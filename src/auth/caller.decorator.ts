import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestState } from '../common/http/request-context';

/** The authenticated caller of the request. */
export const Caller = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    requestState(context.switchToHttp().getRequest<Request>()).principal,
);

/** The `{id}` identity with the view the access guard granted. */
export const Target = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    requestState(context.switchToHttp().getRequest<Request>()).target,
);
