import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Forbidden, IdentityMoved, IdentityNotFound } from '../common/errors';
import { pathParam, requestState } from '../common/http/request-context';
import {
  ACCESS_RULE,
  AccessRule,
  IDENTITY_RULES,
  IdentityRule,
} from './access.decorator';
import { hasNoNul } from '../common/validation/field-rules';
import { identityView } from './access-policy';
import { AuthRepository } from './auth.repository';
import { Principal } from './principal';

/**
 * The global authorization guard. Runs after authentication and decides,
 * with one access query, whether the caller may use the route and, on
 * `{id}` routes, what it may see of that identity.
 */
@Injectable()
export class IdentityAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<AccessRule | undefined>(
      ACCESS_RULE,
      context.getHandler(),
    );
    if (rule === 'public') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const state = requestState(req);
    const caller = state.principal!;
    if (rule === 'current') {
      if (caller.kind !== 'access')
        throw new Forbidden(
          'An app token has no current identity; name the identity in the path.',
        );
      return true;
    }
    if (!rule || !IDENTITY_RULES.includes(rule))
      throw new Forbidden('This route declares no access rule.');
    const identityId = pathParam(req, 'id');
    // No stored identifier can hold U+0000; PostgreSQL would refuse to compare it.
    if (!hasNoNul(identityId)) throw new IdentityNotFound(identityId);
    const { view, identity, mergedInto } = await this.decide(
      caller,
      identityId,
      rule,
    );
    if (view !== 'none' && identity) {
      state.target = { identityId, view, identity };
      return true;
    }
    // Only reads follow a merge: a redirected DELETE would remove the survivor.
    if (
      mergedInto &&
      rule !== 'identity-delete' &&
      (await this.decide(caller, mergedInto, rule)).view !== 'none'
    ) {
      const segments = req.path.split('/');
      segments[5] = encodeURIComponent(mergedInto);
      throw new IdentityMoved(segments.join('/'));
    }
    throw new IdentityNotFound(identityId);
  }

  private async decide(
    caller: Principal,
    identityId: string,
    rule: IdentityRule,
  ) {
    const callerId = caller.kind === 'access' ? caller.identityId : null;
    const facts = await this.auth.accessFacts(
      caller.tenantId,
      identityId,
      callerId,
    );
    const view = identityView(
      caller,
      { identityId, isFriend: facts.isFriend },
      rule,
    );
    if (view === 'forbidden')
      throw new Forbidden(forbiddenReason(caller, rule));
    return {
      view: facts.identity ? view : 'none',
      identity: facts.identity,
      mergedInto: facts.mergedInto,
    } as const;
  }
}

function forbiddenReason(caller: Principal, rule: IdentityRule): string {
  if (caller.kind === 'access')
    return 'Only the identity itself or an administrator may delete it.';
  const scope =
    rule === 'identity-delete' ? 'identities:delete' : 'identities:read';
  return `This app token lacks the ${scope} scope.`;
}
