import { ConsumedTooSlowly } from './pulled';

// Prisma's codes for a database it cannot reach or that went away, or too
// busy to answer in time: P2024 (no connection from the pool in time) and
// P2028 (a transaction that could not start in time, or ran out of time and
// was rolled back).
const PRISMA_UNAVAILABLE = new Set([
  'P1001',
  'P1002',
  'P1003',
  'P1008',
  'P1011',
  'P1017',
  'P2024',
  'P2028',
  'P2037',
]);

// The driver adapter's kinds of the same, for queries it runs directly
// (through the client, Prisma turns them into the codes above).
const ADAPTER_UNAVAILABLE = new Set([
  'DatabaseNotReachable',
  'DatabaseDoesNotExist',
  'ConnectionClosed',
  'SocketTimeout',
  'TlsConnectionError',
  'TooManyConnections',
]);

// SQLSTATEs of the same: connection exceptions (class 08), operator
// intervention (57P01-57P03), too many connections, a database that is not
// accepting connections or does not exist, and a write on a server that is
// read-only (25006: a standby, or a primary demoted in a failover).
const SQLSTATE_UNAVAILABLE = /^(08...|57P0[123]|53300|55000|3D000|25006)$/;

// Text PostgreSQL cannot store: a byte sequence invalid in UTF-8 or U+0000.
const SQLSTATE_UNSTORABLE_TEXT = /^(22021|22P05)$/;

const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);

const DRIVER_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Can't reach database|Cannot use a pool after calling end|Client has encountered a connection error/i;

interface ErrorLike {
  name?: string;
  /** A driver adapter error's kind (its cause). */
  kind?: unknown;
  code?: unknown;
  originalCode?: unknown;
  message?: string;
  originalMessage?: unknown;
  constraint?: { index?: unknown };
  meta?: { code?: unknown; driverAdapterError?: unknown; target?: unknown };
  cause?: unknown;
  /** An AggregateError's errors: one per address tried. */
  errors?: unknown;
}

/** The error and the errors it wraps: Prisma keeps the driver's in meta.driverAdapterError. */
function* chain(error: unknown, depth = 0): Generator<ErrorLike> {
  if (typeof error !== 'object' || error === null || depth > 5) return;
  const e = error as ErrorLike;
  yield e;
  yield* chain(e.meta?.driverAdapterError, depth + 1);
  yield* chain(e.cause, depth + 1);
  if (Array.isArray(e.errors))
    for (const inner of e.errors) yield* chain(inner, depth + 1);
}

const codes = (e: ErrorLike) =>
  [e.code, e.originalCode, e.meta?.code].filter(
    (c): c is string => typeof c === 'string',
  );

/**
 * A connection that could not be made through a URL other than
 * DATABASE_URL, so that a message names the variable and the server that
 * failed; the driver's error is its cause.
 */
export class ConnectionFailed extends Error {
  constructor(
    readonly variable: string,
    readonly url: string,
    cause: unknown,
  ) {
    super(`Cannot connect through ${variable}`, { cause });
  }
}

/**
 * No connection of the pool's share for cursors came free in time
 * (cursor-slots.ts): the database is as busy as an exhausted pool, 503.
 */
export class NoCursorSlot extends Error {
  constructor(waitMs: number) {
    super(`No connection for a cursor came free in ${waitMs} ms`);
  }
}

/** The ConnectionFailed in the error or the errors it wraps, if any. */
export function failedConnection(error: unknown): ConnectionFailed | undefined {
  for (const e of chain(error)) if (e instanceof ConnectionFailed) return e;
  return undefined;
}

/** Every code in the error and the errors it wraps: SQLSTATEs, Prisma's, socket errors'. */
export function errorCodes(error: unknown): string[] {
  return [...chain(error)].flatMap(codes);
}

/** Whether an error means the database is unreachable, not that a query is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of chain(error)) {
    if (e.name === 'PrismaClientInitializationError') return true;
    if (e instanceof NoCursorSlot) return true;
    if (typeof e.kind === 'string' && ADAPTER_UNAVAILABLE.has(e.kind))
      return true;
    if (
      codes(e).some(
        (c) =>
          PRISMA_UNAVAILABLE.has(c) ||
          SOCKET_ERRORS.has(c) ||
          SQLSTATE_UNAVAILABLE.test(c),
      )
    )
      return true;
    if (typeof e.message === 'string' && DRIVER_MESSAGES.test(e.message))
      return true;
  }
  return false;
}

/**
 * Whether PostgreSQL stopped a statement that ran past its
 * `statement_timeout` (SQLSTATE 57014, query_canceled): the database is up,
 * the query was too slow.
 */
export function isQueryTimeout(error: unknown): boolean {
  for (const e of chain(error)) {
    if (codes(e).includes('57014')) return true;
    // A cursor read for longer than the same bound (Database.cursor).
    if (e instanceof ConsumedTooSlowly) return true;
  }
  return false;
}

/** Whether the database refused a value because it cannot store such text. */
export function isUnstorableText(error: unknown): boolean {
  for (const e of chain(error))
    if (codes(e).some((c) => SQLSTATE_UNSTORABLE_TEXT.test(c))) return true;
  return false;
}

/** The unique index of identities' userNames (migration 20261208000000_canonical_match). */
export const USER_NAME_INDEX = 'identity_tenant_id_ascii_lower_user_name_key';

const UNIQUE_VIOLATION = new Set(['23505', 'P2002']);

/**
 * Whether the database refused a write because it would break the unique
 * index `index`: the SQLSTATE (or Prisma's code, or the adapter's kind)
 * with the index named in the error's constraint, target or message.
 */
export function isUniqueViolation(error: unknown, index: string): boolean {
  const errors = [...chain(error)];
  const unique = errors.some(
    (e) =>
      e.kind === 'UniqueConstraintViolation' ||
      codes(e).some((c) => UNIQUE_VIOLATION.has(c)),
  );
  return (
    unique &&
    errors.some((e) =>
      [e.constraint?.index, e.meta?.target, e.message, e.originalMessage].some(
        (text) => typeof text === 'string' && text.includes(index),
      ),
    )
  );
}

/**
 * Whether the database refused a write because a row it names is gone (a
 * foreign key): an identity or a provider removed meanwhile.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return errorCodes(error).includes('23503');
}
