import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Forbidden, IdentityMoved, IdentityNotFound } from '../common/errors';
import { pathParam } from '../common/http/request-context';
import { pathOf } from '../common/http/route-table';
import {
  ACCESS_RULE,
  AccessRule,
  IDENTITY_RULES,
  IdentityRule,
  READ_RULES,
} from '../common/http/access.decorator';
import { isStorableText } from '../common/validation/field-rules';
import {
  identityView,
  mayAdminister,
  mayProvision,
  scopeOf,
} from './access-policy';
import { AccessRepository } from './access.repository';
import { setTarget } from '../identity/caller.decorator';
import { Principal } from '../identity/principal';

/**
 * The global authorization guard. Runs after authentication and decides,
 * with one access query, whether the caller may use the route and, on
 * `{id}` routes, what it may see of that identity.
 */
@Injectable()
export class IdentityAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AccessRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<AccessRule | undefined>(
      ACCESS_RULE,
      context.getHandler(),
    );
    if (rule === 'public') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const caller = req.user as Principal;
    if (rule === 'current') {
      if (caller.kind !== 'access')
        throw new Forbidden(
          'An app token has no current identity; name the identity in the path.',
        );
      return true;
    }
    if (rule === 'scim') {
      if (!mayProvision(caller))
        throw new Forbidden(
          'SCIM provisioning needs an app token with the scim:provision scope.',
        );
      return true;
    }
    if (rule === 'admin') {
      if (!mayAdminister(caller)) throw new Forbidden(ADMIN_ONLY);
      return true;
    }
    // Decided by the caller alone: refused before anything is read.
    if (rule === 'admin-identity' && !mayAdminister(caller))
      throw new Forbidden(ADMIN_ONLY);
    if (!rule || !IDENTITY_RULES.includes(rule))
      throw new Forbidden('This route declares no access rule.');
    const identityId = pathParam(req, 'id');
    // No stored identifier holds U+0000 (PostgreSQL would refuse to compare
    // it) or a lone surrogate (it would be compared as U+FFFD).
    if (!isStorableText(identityId)) throw new IdentityNotFound(identityId);
    const facts = await this.auth.accessFacts(
      caller.tenantId,
      identityId,
      caller.kind === 'access' ? caller.identityId : null,
    );
    const view = this.view(caller, identityId, facts.isFriend, rule);
    if (view !== 'none' && facts.identity) {
      setTarget(req, { identityId, view, identity: facts.identity });
      return true;
    }
    // Only reads follow a merge: a redirected DELETE would remove the survivor.
    const survivor = facts.mergedInto;
    if (
      survivor &&
      READ_RULES.has(rule) &&
      this.view(caller, survivor.identityId, survivor.isFriend, rule) !== 'none'
    ) {
      throw new IdentityMoved(
        pathOf(req.route.path as string, {
          ...req.params,
          id: survivor.identityId,
        }) + queryWithoutToken(req.originalUrl),
      );
    }
    throw new IdentityNotFound(identityId);
  }

  private view(
    caller: Principal,
    identityId: string,
    isFriend: boolean,
    rule: IdentityRule,
  ) {
    const view = identityView(caller, { identityId, isFriend }, rule);
    if (view === 'forbidden')
      throw new Forbidden(forbiddenReason(caller, rule));
    return view;
  }
}

/** Why a token that may not administer the tenant is refused its administration API. */
const ADMIN_ONLY =
  'The admin API needs an app token with the tenant:admin scope.';

function forbiddenReason(caller: Principal, rule: IdentityRule): string {
  if (rule === 'admin-identity') return ADMIN_ONLY;
  if (caller.kind === 'app')
    return `This app token lacks the ${scopeOf(rule)} scope.`;
  if (rule === 'identity-accounts-write')
    return 'Accounts of an identity are recorded by an app token with the accounts:write scope.';
  return rule === 'identity-friends-write'
    ? 'Friendships are written by an app token with the friends:write scope.'
    : 'Only the identity itself or an administrator may delete it.';
}

/**
 * The request's query for the new location of a merged identity (a page's
 * `limit` and `cursor` go on), without `access_token`: no answer carries a
 * token.
 */
function queryWithoutToken(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return '';
  const kept = url
    .slice(at + 1)
    .split('&')
    .filter((part) => part && !namesToken(part.split('=')[0]));
  return kept.length ? `?${kept.join('&')}` : '';
}

/** A parameter name that is, or could be read as, access_token (any spelling). */
function namesToken(name: string): boolean {
  try {
    return /access_token/i.test(decodeURIComponent(name.replace(/\+/g, ' ')));
  } catch {
    return true;
  }
}
