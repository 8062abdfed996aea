import type { ClientConfig } from 'pg';
import { parse, toClientConfig } from 'pg-connection-string';

// prettier-ignore
const TARGET_SESSION_ATTRS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
// prettier-ignore
const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
const LOAD_BALANCE_HOSTS = ['disable', 'random'] as const;

export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];
export type SslMode = (typeof SSL_MODES)[number];

/** One server of the string: a host name, an address, or a Unix-socket directory (starts with '/'), and its port. */
export interface ServerAddress {
  host: string;
  port: number;
}

export interface ConnectionString {
  /** In the order given; at least one. */
  readonly servers: readonly ServerAddress[];
  /** libpq's default: 'any'. */
  readonly targetSessionAttrs: TargetSessionAttrs;
  /** As given; undefined when the string names none (the service then connects without TLS, as today). */
  readonly sslmode: SslMode | undefined;
  /** libpq's load_balance_hosts: 'disable' (default) or 'random'. */
  readonly loadBalanceHosts: 'disable' | 'random';
  /** Where it points, for logs: `host:port,host:port/dbname`, never user or password. */
  readonly description: string;
  /**
   * pg's client configuration for one of `servers`, with TLS (`tls` true) or
   * without; `tls` matters only for sslmode allow and prefer, the modes that
   * may connect either way. Every other parameter is read as pg reads it from
   * a single-host string, sslmode with libpq's meaning: require = TLS without
   * verifying the certificate (verify-ca when sslrootcert is given),
   * verify-ca = chain verified, name not, verify-full = both. Never includes
   * target_session_attrs, load_balance_hosts or a connectionString key.
   */
  configFor(server: ServerAddress, tls: boolean): ClientConfig;
}

/** Thrown with a message that never contains the password. */
export class ConnectionStringError extends Error {}

const URI_PREFIX = /^postgres(?:ql)?:\/\//;
const NOT_A_CONNECTION_STRING =
  'must be a postgresql:// connection string (or libpq key=value pairs)';
const MALFORMED_ESCAPE =
  'has a malformed percent-escape in its user, password or database name (a % itself is written %25)';
/** Read here rather than handed to pg, which knows neither the lists nor the last three. */
// prettier-ignore
const OWN_KEYS = new Set(['host', 'port', 'user', 'password', 'dbname', 'target_session_attrs', 'load_balance_hosts', 'uselibpqcompat']);

const fail = (message: string): never => {
  throw new ConnectionStringError(message);
};

function decoded(text: string, message = MALFORMED_ESCAPE): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return fail(message);
  }
}

/**
 * A URI's parameters under libpq's keywords, `host` and `port` as comma
 * lists. Two departures from libpq keep every string pg reads today as it
 * reads it: the user information ends at the last `@`, and the query is
 * decoded as a URL's (`+` is a space, a stray `%` stays).
 */
function uriParameters(text: string): Map<string, string> {
  if (/\s/.test(text)) fail(NOT_A_CONNECTION_STRING);
  const [, authority, path, query] = text
    .replace(URI_PREFIX, '')
    .match(/^([^/?]*)(?:\/([^?]*))?(?:\?(.*))?$/s)!;
  const parameters = new Map<string, string>();
  const at = authority.lastIndexOf('@');
  const [user, ...password] = authority.slice(0, Math.max(at, 0)).split(':');
  if (user) parameters.set('user', decoded(user));
  if (password.length) parameters.set('password', decoded(password.join(':')));
  const entries = authority
    .slice(at + 1)
    .split(',')
    .map(
      (entry) =>
        entry.match(/^(?:\[([^\]]+)\]|([^:[\]]*))(?::(.*))?$/) ??
        fail(NOT_A_CONNECTION_STRING),
    );
  const hosts = entries.map(([, ipv6, host]) =>
    decoded(
      ipv6 ?? host,
      'has a malformed percent-escape in a host (a % itself is written %25)',
    ),
  );
  const ports = entries.map(([, , , port]) => port ?? '');
  if (hosts.join(',')) parameters.set('host', hosts.join(','));
  if (ports.some(Boolean)) parameters.set('port', ports.join(','));
  if (path) parameters.set('dbname', decoded(path));
  for (const [key, value] of new URLSearchParams(query))
    parameters.set(key, value);
  return parameters;
}

/** libpq's key=value pairs: a value bare or in single quotes, `\` taking the next character as it is. */
function keyValueParameters(text: string): Map<string, string> {
  const pair =
    /\s*(\w+)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|((?:[^\s'\\]|\\.)(?:[^\s\\]|\\.)*)?)(?:\s+|$)/sy;
  const parameters = new Map<string, string>();
  while (pair.lastIndex < text.length) {
    const [, key, quoted, bare] =
      text.match(pair) ??
      fail(
        "has a key=value pair libpq cannot read (a value with spaces goes in single quotes; a ' or \\ in it is written \\' or \\\\)",
      );
    parameters.set(key, (quoted ?? bare ?? '').replace(/\\(.)/gs, '$1'));
  }
  return parameters;
}

function portOf(text: string): number {
  if (text === '') return 5432;
  const port = /^\d{1,5}$/.test(text) ? Number(text) : 0;
  // The port is not echoed: a password holding a `/` ends the authority early and lands here.
  return port >= 1 && port <= 65535
    ? port
    : fail('has a port that is not a whole number from 1 to 65535');
}

/** libpq's pairing: one port for every host, or one per host; empty entries take the defaults. */
function serversOf(parameters: Map<string, string>): ServerAddress[] {
  const hosts = (parameters.get('host') ?? '').split(',');
  const ports = (parameters.get('port') ?? '').split(',');
  if (ports.length !== 1 && ports.length !== hosts.length)
    fail(
      `has ${hosts.length} hosts and ${ports.length} ports; libpq takes one port for all hosts or one per host`,
    );
  return hosts.map((host, i) => ({
    host: host || 'localhost',
    port: portOf(ports.length === 1 ? ports[0] : ports[i]),
  }));
}

function oneOf<T extends string>(
  parameters: Map<string, string>,
  key: string,
  known: readonly T[],
): T | undefined {
  const value = parameters.get(key);
  if (value === undefined || known.includes(value as T)) return value as T;
  return fail(`has ${key}=${value}; libpq knows ${known.join(', ')}`);
}

const shown = ({ host, port }: ServerAddress) =>
  `${host.includes(':') && !host.startsWith('/') ? `[${host}]` : host}:${port}`;

/**
 * pg-connection-string reads every parameter but the lists, on a
 * single-host URI; the server, the database name (which it would decode
 * only in part) and, for allow and prefer, the choice of TLS are set after.
 */
function configFor(
  parameters: Map<string, string>,
  server: ServerAddress,
  tls: boolean,
): ClientConfig {
  const [user, password] = ['user', 'password'].map((key) =>
    encodeURIComponent(parameters.get(key) ?? ''),
  );
  const query = new URLSearchParams(
    [...parameters].filter(([key]) => !OWN_KEYS.has(key)),
  );
  const config = toClientConfig(
    parse(`postgresql://${user}:${password}@localhost/?${query}`, {
      useLibpqCompat: true,
    }),
  );
  const database = parameters.get('dbname');
  const sslmode = parameters.get('sslmode');
  return {
    ...config,
    host: server.host,
    port: server.port,
    ...(database !== undefined && { database }),
    ...((sslmode === 'allow' || sslmode === 'prefer') && {
      ssl: tls && { ...(config.ssl as object), rejectUnauthorized: false },
    }),
  };
}

export function parseConnectionString(text: string): ConnectionString {
  const parameters = URI_PREFIX.test(text)
    ? uriParameters(text)
    : /^\s*\w+\s*=/.test(text)
      ? keyValueParameters(text)
      : fail(NOT_A_CONNECTION_STRING);
  const servers = serversOf(parameters);
  const sslmode = oneOf(parameters, 'sslmode', SSL_MODES);
  // pg refuses it at connect time; libpq would look for ~/.postgresql/root.crt.
  if (sslmode === 'verify-ca' && !parameters.get('sslrootcert'))
    fail(
      'has sslmode=verify-ca without sslrootcert, the CA certificate it verifies the server against',
    );
  const dbname = parameters.get('dbname');
  return {
    servers,
    targetSessionAttrs:
      oneOf(parameters, 'target_session_attrs', TARGET_SESSION_ATTRS) ?? 'any',
    sslmode,
    loadBalanceHosts:
      oneOf(parameters, 'load_balance_hosts', LOAD_BALANCE_HOSTS) ?? 'disable',
    description: servers.map(shown).join(',') + (dbname ? `/${dbname}` : ''),
    configFor: (server, tls) => configFor(parameters, server, tls),
  };
}

/** Why `text` is not a connection string the service can use, or undefined. */
export function connectionStringProblem(text: string): string | undefined {
  try {
    parseConnectionString(text);
    return undefined;
  } catch (error) {
    if (error instanceof ConnectionStringError) return error.message;
    throw error;
  }
}

/**
 * DATABASE_REPLICA_URL's list: a comma followed by (spaces and) a URI's
 * scheme starts the next string; any other comma belongs to the string it
 * is in, a host list.
 */
export function splitConnectionStrings(list: string): string[] {
  return list.split(/,\s*(?=postgres(?:ql)?:\/\/)/).map((text) => text.trim());
}
