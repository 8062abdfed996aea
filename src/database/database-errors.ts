// Prisma's codes for a database it cannot reach or that went away.
const PRISMA_UNAVAILABLE = new Set([
  'P1001',
  'P1002',
  'P1003',
  'P1008',
  'P1011',
  'P1017',
  'P2024',
  'P2037',
]);

// SQLSTATEs of the same: connection exceptions (class 08), operator
// intervention (57P01-57P03), too many connections, a database that is not
// accepting connections or does not exist.
const SQLSTATE_UNAVAILABLE = /^(08...|57P0[123]|53300|55000|3D000)$/;

const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);

const DRIVER_MESSAGES =
  /Connection terminated|connection timeout|Can't reach database|Cannot use a pool after calling end|Client has encountered a connection error/i;

interface ErrorLike {
  name?: string;
  code?: unknown;
  originalCode?: unknown;
  message?: string;
  meta?: { code?: unknown; driverAdapterError?: unknown };
  cause?: unknown;
}

const unavailableCode = (code: unknown) =>
  typeof code === 'string' &&
  (PRISMA_UNAVAILABLE.has(code) ||
    SOCKET_ERRORS.has(code) ||
    SQLSTATE_UNAVAILABLE.test(code));

/** Whether an error means the database is unreachable, not that a query is wrong. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const e = error as ErrorLike;
  if (e.name === 'PrismaClientInitializationError') return true;
  if ([e.code, e.originalCode, e.meta?.code].some(unavailableCode)) return true;
  if (typeof e.message === 'string' && DRIVER_MESSAGES.test(e.message))
    return true;
  // Prisma keeps the driver's error in meta.driverAdapterError, others in cause.
  return (
    isDatabaseUnavailable(e.meta?.driverAdapterError, depth + 1) ||
    isDatabaseUnavailable(e.cause, depth + 1)
  );
}
