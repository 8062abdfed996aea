import { AccessRule } from './access.decorator';
import { Principal, SCOPE_READ } from './principal';

/** What the caller may see of an identity. */
export type View = 'full' | 'public' | 'none';

export interface TargetFacts {
  identityId: string;
  /** The target lists the caller as a friend. */
  isFriend: boolean;
}

/**
 * The authorization table of decisions.md as one function. An app token
 * without the scope is refused outright (403); for everyone else an identity
 * they may not read looks exactly like one that does not exist.
 */
export function identityView(
  caller: Principal,
  target: TargetFacts,
  rule: Extract<AccessRule, 'identity' | 'identity-relations'>,
): View | 'forbidden' {
  if (caller.kind === 'app')
    return caller.scopes.includes(SCOPE_READ) ? 'full' : 'forbidden';
  if (caller.identityId === target.identityId || caller.isAdmin) return 'full';
  if (rule === 'identity' && target.isFriend) return 'public';
  return 'none';
}
