/** What tenant administration did (docs/operations.md, the audit log). */
export const ADMIN_ACTIONS = [
  'tenant.updated',
  'tenant.replaced',
  'token.created',
  'token.revoked',
  'provider.created',
  'provider.updated',
  'provider.deleted',
  'issuer.created',
  'issuer.updated',
  'issuer.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret-rotated',
  'webhook.replayed',
] as const;

export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** The longest actor of the audit log: `app:` and an app id. */
export const MAX_ACTOR_LENGTH = 204;
