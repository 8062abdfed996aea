import { SetMetadata } from '@nestjs/common';

/**
 * Who may call a route. Every route declares one; a route without it is
 * refused (and a test fails).
 * - `public`: no token needed.
 * - `current`: the caller's own identity; access tokens only.
 * - `identity`: GET `{id}`; friends see the public view.
 * - `identity-relations`: accounts, friends, roles of `{id}`.
 */
export type AccessRule =
  'public' | 'current' | 'identity' | 'identity-relations';

export const ACCESS_RULE = 'access-rule';
export const Access = (rule: AccessRule) => SetMetadata(ACCESS_RULE, rule);
