import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { Agent } from 'undici';
import { addressProblem } from './egress-policy';

/** The error code of a name that resolved to an address the policy refuses. */
export const REFUSED_ADDRESS = 'EREFUSEDADDRESS';

/** Where names are resolved (`dns.lookup`); tests put a resolver of their own here. */
export const resolver: { lookup: typeof lookup } = { lookup };

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `dns.lookup` for outbound sockets that fails, before any connection is
 * made, when a name resolves to an address `refusal` names a reason for
 * (any one of its addresses: the socket may try each). A URL's check reads
 * the URL; a name can resolve anywhere, and again differently on the next
 * lookup, so the addresses are checked where the connection is made. The
 * error's code is EREFUSEDADDRESS and its message the reason.
 */
export function refusingLookup(
  refusal: (address: string) => string | undefined,
) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: LookupCallback,
  ): void => {
    resolver.lookup(
      hostname,
      { ...options, all: true },
      (error: NodeJS.ErrnoException | null, found: LookupAddress[]) => {
        if (error) return callback(error, []);
        const reason = found.length
          ? found.map((a) => refusal(a.address)).find(Boolean)
          : 'no address';
        if (reason) {
          // The name may come from a remote document: not in the message.
          const refused: NodeJS.ErrnoException = new Error(
            `its name resolves to ${reason}`,
          );
          refused.code = REFUSED_ADDRESS;
          return callback(refused, []);
        }
        if (options.all) return callback(null, found);
        callback(null, found[0].address, found[0].family);
      },
    );
  };
}

/** What a resolved address is called in a refusal, from the policy's reason. */
const refusalOf = (allowPrivate: boolean) => (address: string) =>
  addressProblem(address, allowPrivate)?.replace(/^must not name /, '');

/** `dns.lookup` for outbound sockets under the egress policy. */
export const egressLookup = (allowPrivate: boolean) =>
  refusingLookup(refusalOf(allowPrivate));

/**
 * The connections the service opens on tenants' behalf, one pool for the
 * tenants the operator lets reach loopback and private networks and one for
 * the others; kept alive between requests. Every name resolves through
 * egressLookup; an IP address in a URL is not looked up, which is why every
 * caller checks the URL (egressUrlProblem) before it fetches.
 */
let agents: { public: Agent; private: Agent } | undefined;

/** The pool for a tenant's requests, by whether it may reach private networks. */
export function egressAgent(allowPrivate: boolean): Agent {
  const { Agent } = undici();
  agents ??= {
    public: new Agent({
      connect: { lookup: egressLookup(false) },
      keepAliveTimeout: 30_000,
    }),
    private: new Agent({
      connect: { lookup: egressLookup(true) },
      keepAliveTimeout: 30_000,
    }),
  };
  return agents[allowPrivate ? 'private' : 'public'];
}

/** undici's fetch, which takes those pools. */
export const egressFetch: (typeof import('undici'))['fetch'] = (url, init) =>
  undici().fetch(url, init);

/**
 * Required on first use: a process that sends nothing on tenants' behalf
 * (the command line, mostly) loads none of undici.
 */
const undici = (): typeof import('undici') => require('undici');
