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

/**
 * The URL's host as the check compares it: without IPv6 brackets, in lower
 * case, without a trailing dot (`metadata.google.internal.` is the same
 * name), and an IPv6 address that carries an IPv4 one (IPv4-mapped
 * `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, IPv4-compatible `::/96`) as that
 * IPv4 address.
 */
const hostOf = (url: URL) => {
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.+$/, '');
  return isIP(host) === 6 ? (embeddedIPv4(host) ?? host) : host;
};

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part read too). */
function groupsOf(address: string): number[] | undefined {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) =>
    s ? s.split(':').map((g) => parseInt(g, 16)) : [];
  const front = part(head);
  const back = part(tail);
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

/** The IPv4 address an IPv6 one carries in its last 32 bits, for the prefixes that mean one. */
function embeddedIPv4(address: string): string | undefined {
  const g = groupsOf(address);
  if (!g) return undefined;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  const mapped = zeros(5) && g[5] === 0xffff;
  const nat64 =
    g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  const compatible = zeros(6) && (g[6] !== 0 || g[7] > 1);
  if (!mapped && !nat64 && !compatible) return undefined;
  return [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff].join('.');
}

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** fd00:ec2::254 however it is written. */
function isMetadataV6(host: string): boolean {
  const g = isIP(host) === 6 ? groupsOf(host) : undefined;
  return (
    g !== undefined && g.join(':') === groupsOf('fd00:ec2::254')!.join(':')
  );
}

function isLinkLocal(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith('169.254.');
  return isIP(host) === 6 && /^fe[89ab][0-9a-f]:/i.test(host);
}

/**
 * Whether the service must never connect to `address`, an IP address a
 * name resolved to: link-local, a cloud metadata service, or one of those
 * carried in an IPv6 address (anything that is not an address at all too).
 */
export function isRefusedAddress(address: string): boolean {
  let host = address.replace(/%.*$/, '').toLowerCase();
  if (!isIP(host)) return true;
  if (isIP(host) === 6) host = embeddedIPv4(host) ?? host;
  return isLinkLocal(host) || METADATA_HOSTS.has(host) || isMetadataV6(host);
}

/** Whether `a.b.c.d` lies in `base/bits`. */
function inV4(host: string, base: string, bits: number): boolean {
  const value = (ip: string) =>
    ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  const size = 2 ** (32 - bits);
  return Math.floor(value(host) / size) === Math.floor(value(base) / size);
}

const PRIVATE_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/**
 * Whether `address` (an IP address a name resolved to, or a URL's host) is
 * on a private or otherwise non-public network: RFC 1918, carrier-grade
 * NAT, unique-local IPv6 (fc00::/7), the unspecified address, multicast and
 * reserved ranges, also inside an IPv6 address that carries IPv4. Loopback
 * is not: it is where development and tests run.
 */
export function isPrivateAddress(address: string): boolean {
  let host = address
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (isIP(host) === 6) host = embeddedIPv4(host) ?? host;
  if (isIP(host) === 4)
    return PRIVATE_V4.some(([base, bits]) => inV4(host, base, bits));
  if (isIP(host) !== 6) return false;
  const g = groupsOf(host);
  if (!g) return true;
  return (
    g.every((x) => x === 0) || // ::
    (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xff00) === 0xff00 // multicast
  );
}

/** Why the service must not fetch from `value`, or undefined when it may. */
export function outboundUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be an absolute URL';
  const url = new URL(value);
  const host = hostOf(url);
  if (isLinkLocal(host) || METADATA_HOSTS.has(host) || isMetadataV6(host))
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
