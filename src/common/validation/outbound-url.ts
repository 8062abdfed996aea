import { ValidateBy } from 'class-validator';
import { addressClassOf, egressUrlProblem } from './egress-policy';

// The egress policy's rules as a configured URL meets them (egress-policy.ts
// decides; the connection is checked again when it is made). A URL is
// validated here without its tenant: what no tenant may name is refused;
// loopback and private networks, which the operator's listed tenants may
// name, are refused by the tenant's own check and at connect time.

export function isLoopbackHost(host: string): boolean {
  return addressClassOf(host) === 'loopback';
}

/** Why no tenant may have the service fetch from `value`, or undefined. */
export function outboundUrlProblem(value: string): string | undefined {
  return egressUrlProblem(value, true);
}

/**
 * Whether a discovered JWKS address stays on its issuer's host (or on
 * loopback, for an issuer on loopback itself: a remote issuer's document
 * does not choose a port of the service's host).
 */
export function isOnIssuerHost(
  jwksUri: string,
  issuer: string,
  allowPrivate: boolean,
): boolean {
  if (egressUrlProblem(jwksUri, allowPrivate)) return false;
  const keys = new URL(jwksUri);
  if (isLoopbackHost(keys.hostname))
    return isLoopbackHost(new URL(issuer).hostname);
  return keys.protocol === 'https:' && keys.host === new URL(issuer).host;
}

/** Class-validator rule: a URL the service may send a tenant's requests to. */
export const IsIssuerUrl = () =>
  ValidateBy({
    name: 'isIssuerUrl',
    validator: {
      validate: (value) =>
        typeof value === 'string' && outboundUrlProblem(value) === undefined,
      defaultMessage: (args) =>
        typeof args?.value === 'string'
          ? outboundUrlProblem(args.value)!
          : 'must be a URL',
    },
  });
