import { withoutNulls } from '../common/representation';
import type { LinkRow, ProviderRow } from './tenant-data';

// A provider's client secret (docs/security.md, client secrets): written
// with its link settings, kept sealed beside them, never read back. What
// the admin API, the command line and the tenant file write, one rule.

/** What a write does to the secret: none before or after, keep it, a new one, remove it. */
export type SecretWrite = 'none' | 'keep' | 'set' | 'remove';

/** A write that would send the stored secret somewhere else without it given again. */
export const SECRET_NEEDED_AGAIN =
  'must be given again: the link now sends it elsewhere (its type, issuer, tokenEndpoint or clientId changed)';

/** Where a link sends its client secret, and as which client. */
const destination = (link: LinkRow) =>
  JSON.stringify([link.type, link.issuer ?? link.tokenEndpoint, link.clientId]);

/**
 * What writing `after` with the secret `given` (undefined: not given, null:
 * none) does to a provider whose link was `before`, with a secret or not;
 * undefined when refused: the secret would be sent where it was not set for.
 */
export function secretWrite(
  before: { link: LinkRow | null; hasSecret: boolean } | null,
  after: LinkRow | null,
  given: string | null | undefined,
): SecretWrite | undefined {
  const had = before?.hasSecret ?? false;
  if (after === null || given === null) return had ? 'remove' : 'none';
  if (given !== undefined) return 'set';
  if (!had) return 'none';
  return before?.link && destination(before.link) === destination(after)
    ? 'keep'
    : undefined;
}

/** What a sealed secret is bound to: its tenant and provider. */
export const secretContext = (tenantId: string, providerId: string) =>
  ['client-secret', tenantId, providerId] as const;

/**
 * A provider as answers and exports show it: nulls left out, and of its
 * secret only when it was set, in its link settings.
 */
export function providerEntry({
  position: _position,
  clientSecretSetAt,
  ...row
}: ProviderRow) {
  return withoutNulls({
    ...row,
    link: row.link && {
      ...row.link,
      ...(clientSecretSetAt && {
        clientSecretSetAt: clientSecretSetAt.toISOString(),
      }),
    },
  });
}

/** The addresses a link's settings make the service fetch, by field (`prefix` before each name). */
export function linkUrls(
  link:
    | {
        issuer?: string;
        authorizationEndpoint?: string;
        tokenEndpoint?: string;
        userInfoEndpoint?: string;
      }
    | null
    | undefined,
  prefix: string,
): Record<string, string | undefined> {
  if (!link) return {};
  return {
    [`${prefix}issuer`]: link.issuer,
    [`${prefix}tokenEndpoint`]: link.tokenEndpoint,
    [`${prefix}userInfoEndpoint`]: link.userInfoEndpoint,
  };
}
