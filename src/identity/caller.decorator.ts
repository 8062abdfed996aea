import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { IdentityRecord } from './identity.record';
import type { Principal } from './principal';

/** The authenticated caller of the request, as passport set it on the request. */
export const Caller = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<Request>().user as Principal,
);

/** The `{id}` identity as the access guard read it, and what the caller may see of it. */
export interface AccessTarget {
  identityId: string;
  view: 'full' | 'public';
  identity: IdentityRecord;
}

/** Where the request keeps its target (a property, not a WeakMap: see requestState). */
const TARGET = Symbol('access target');

type Targeted = Request & { [TARGET]?: AccessTarget };

/** Records the request's `{id}` identity (the access guard, on `{id}` routes). */
export function setTarget(req: Request, target: AccessTarget): void {
  (req as Targeted)[TARGET] = target;
}

/** The `{id}` identity with the view the access guard granted. */
export const Target = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<Targeted>()[TARGET],
);
