import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestState } from '../common/http/request-context';
import type { Principal } from './principal';

/** The authenticated caller of the request, as passport set it on the request. */
export const Caller = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<Request>().user as Principal,
);

/** The `{id}` identity with the view the access guard granted. */
export const Target = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    requestState(context.switchToHttp().getRequest<Request>()).target,
);
