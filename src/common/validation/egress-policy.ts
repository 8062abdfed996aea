import { isIP } from 'node:net';

// One egress policy for every request the service makes on a tenant's
// behalf (issuer discovery and keys, account-link discovery, token and
// user-info endpoints, webhooks). A tenant administrator chooses those URLs,
// so without it the service would fetch from the operator's internal network
// for them and hand the answer back (the user info it stores, the delivery
// log's status). Loopback and private networks are reachable only for the
// tenants the operator lists; link-local, metadata, unspecified, multicast
// and reserved addresses for none.

/** What an address (or a URL's host) is, as the policy sees it. */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  /** Link-local or a cloud metadata service: the host's credentials. */
  | 'link-local'
  /** Unspecified, multicast, broadcast, documentation and other reserved ranges. */
  | 'reserved';

/** Names of cloud metadata services (their addresses are classed link-local too). */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
  'metadata.tencentyun.com',
]);

/** IPv4 ranges by class; the first that holds an address decides. */
const V4_RANGES: [string, number, AddressClass][] = [
  ['100.100.100.200', 32, 'link-local'], // Alibaba Cloud metadata
  ['168.63.129.16', 32, 'link-local'], // Azure WireServer
  ['127.0.0.0', 8, 'loopback'],
  ['0.0.0.0', 8, 'reserved'], // "this network", unspecified
  ['169.254.0.0', 16, 'link-local'], // metadata services too
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'reserved'], // multicast
  ['240.0.0.0', 4, 'reserved'], // reserved, broadcast
];

const v4Value = (ip: string) =>
  ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function classOfV4(address: string): AddressClass {
  const value = v4Value(address);
  const found = V4_RANGES.find(([base, bits]) => {
    const size = 2 ** (32 - bits);
    return Math.floor(value / size) === Math.floor(v4Value(base) / size);
  });
  return found ? found[2] : 'public';
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part read too). */
export function groupsOf(address: string): number[] | undefined {
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

const dottedOf = (high: number, low: number) =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/**
 * The IPv4 address an IPv6 one carries, for the prefixes that mean one:
 * IPv4-mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, IPv4-compatible
 * `::/96`, 6to4 `2002::/16`.
 */
export function embeddedIPv4(g: number[]): string | undefined {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return dottedOf(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return dottedOf(g[6], g[7]);
  if (zeros(6) && (g[6] !== 0 || g[7] > 1)) return dottedOf(g[6], g[7]);
  if (g[0] === 0x2002) return dottedOf(g[1], g[2]);
  return undefined;
}

/** fd00:ec2::254, the AWS metadata service over IPv6, as groupsOf gives it. */
const AWS_METADATA_V6 = [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':');

function classOfV6(address: string): AddressClass {
  const g = groupsOf(address);
  if (!g) return 'reserved';
  const v4 = embeddedIPv4(g);
  if (v4) return classOfV4(v4);
  if (g.every((x) => x === 0)) return 'reserved'; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback';
  if (g.join(':') === AWS_METADATA_V6) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'reserved'; // site-local, deprecated
  if ((g[0] & 0xff00) === 0xff00) return 'reserved'; // multicast
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'reserved'; // documentation
  // Teredo, NAT64 for local use (RFC 8215) and SIIT: each may carry an
  // IPv4 address to a translator that reaches it.
  if (g[0] === 0x2001 && g[1] === 0) return 'reserved';
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'reserved';
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0)
    return 'reserved';
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // unique local
  return 'public';
}

/**
 * The class of `host`: an IP address (IPv6 with or without brackets or a
 * zone), or a name, which is classed by what it says (`localhost`, a
 * metadata service's name) and otherwise public until it resolves.
 */
export function addressClassOf(host: string): AddressClass {
  const bare = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  if (isIP(bare) === 4) return classOfV4(bare);
  if (isIP(bare) === 6) return classOfV6(bare);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return 'loopback';
  return METADATA_HOSTS.has(bare) ? 'link-local' : 'public';
}

/** Why `host`'s class is refused, or undefined when the policy lets the service connect. */
export function addressProblem(
  host: string,
  allowPrivate: boolean,
): string | undefined {
  switch (addressClassOf(host)) {
    case 'link-local':
      return 'must not name a link-local address or a cloud metadata service';
    case 'reserved':
      return 'must not name an unspecified, multicast or reserved address';
    case 'loopback':
      return allowPrivate ? undefined : 'must not name a loopback address';
    case 'private':
      return allowPrivate
        ? undefined
        : 'must not name a private network address';
    default:
      return undefined;
  }
}

const SCHEME =
  'must use https (http only on loopback: localhost, 127.0.0.0/8, ::1)';

/**
 * Why the service must not send a request to `value` for a tenant (whose
 * listing the operator decided: `allowPrivate`), or undefined when it may.
 * Credentials in a URL are refused: they would travel to wherever it
 * points and into logs.
 */
export function egressUrlProblem(
  value: string,
  allowPrivate: boolean,
): string | undefined {
  if (!URL.canParse(value)) return 'must be an absolute URL';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return SCHEME;
  if (url.username || url.password)
    return 'must not carry a user name or password';
  const problem = addressProblem(url.hostname, allowPrivate);
  if (problem) return problem;
  if (url.protocol === 'http:' && addressClassOf(url.hostname) !== 'loopback')
    return SCHEME;
  return undefined;
}

/** Which tenants may reach loopback and private networks: the operator's list, read where it is kept. */
export class EgressPolicy {
  constructor(
    private readonly config: {
      readonly egressPrivateNetworkTenants: readonly string[];
    },
  ) {}

  /** A tenant not named (or none) gets the public internet only. */
  allowsPrivate(tenantId: string | undefined): boolean {
    return (
      tenantId !== undefined &&
      this.config.egressPrivateNetworkTenants.includes(tenantId)
    );
  }
}

/**
 * The problems of a tenant's configured URLs (field name to URL, absent
 * ones skipped) under the policy, as the 400's field errors: for the
 * callers that know the tenant, where a URL is configured.
 */
export function egressFieldErrors(
  allowPrivate: boolean,
  urls: Record<string, string | undefined>,
): { field: string; message: string }[] {
  return Object.entries(urls).flatMap(([field, url]) => {
    const message =
      url === undefined ? undefined : egressUrlProblem(url, allowPrivate);
    return message ? [{ field, message }] : [];
  });
}
