import { isIP } from 'node:net';
import { ValidateBy } from 'class-validator';

// Where the service may fetch a token issuer's discovery document and keys
// from: https anywhere public, plain http on loopback (development and
// tests), never a link-local address or a cloud provider's metadata service,
// which would hand out the host's credentials.

/** Names of cloud metadata services (their addresses are link-local or listed too). */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
  'metadata.tencentyun.com',
  '100.100.100.200',
  'fd00:ec2::254',
]);

/** The URL's host without IPv6 brackets, as the WHATWG parser normalizes it. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function isLinkLocal(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith('169.254.');
  return isIP(host) === 6 && /^fe[89ab][0-9a-f]:/i.test(host);
}

/** Why the service must not fetch from `value`, or undefined when it may. */
export function outboundUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be an absolute URL';
  const url = new URL(value);
  const host = hostOf(url).toLowerCase();
  if (isLinkLocal(host) || METADATA_HOSTS.has(host))
    return 'must not name a link-local address or a cloud metadata service';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(host)) return undefined;
  return 'must use https (http only on loopback: localhost, 127.0.0.0/8, ::1)';
}

/** Whether a discovered JWKS address stays on its issuer's host (or on loopback). */
export function isOnIssuerHost(jwksUri: string, issuer: string): boolean {
  if (!URL.canParse(jwksUri) || outboundUrlProblem(jwksUri)) return false;
  const keys = new URL(jwksUri);
  if (isLoopbackHost(hostOf(keys))) return true;
  return keys.protocol === 'https:' && keys.host === new URL(issuer).host;
}

/** Class-validator rule: a URL the service may fetch an issuer's documents from. */
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
