import { AppError } from '../errors.ts';

/** What a client is told to wait before retrying while the database is away (seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATEs that say the database cannot serve right now, besides class 08 (connection exceptions): an
 * operator's or a crash's shutdown and a server still starting (57P01–57P03), and no connection slot or
 * resource left (53300, 53400).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);

/** Socket-level failures of a connection to the database (node's errno codes). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What node-postgres and its pool say, in words only, when a connection is lost or cannot be had. */
const LOST_CONNECTION = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection timeout/,
  /^Query read timeout/,
];

function isUnavailableCause(current: unknown): boolean {
  const code = (current as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true;
    if (UNAVAILABLE_STATES.has(code) || SOCKET_CODES.has(code)) return true;
  }
  const message = (current as { message?: unknown }).message;
  return typeof message === 'string' && LOST_CONNECTION.some((pattern) => pattern.test(message));
}

/** Whether `error` (or one of its causes) says the database could not be reached or was lost. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    if (isUnavailableCause(current)) return true;
    current =
      (current as { originalError?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A lost or unreachable database as the 503 every surface answers (`unavailable_error`,
 * `database_unavailable`, `retryAfterSeconds`), else null. Nothing was half-written: every write runs in a
 * transaction, and PostgreSQL rolls back one whose connection is lost before it commits.
 */
export function databaseUnavailable(error: unknown): AppError | null {
  if (!isDatabaseUnavailable(error)) return null;
  return new AppError(
    'unavailable_error',
    'database_unavailable',
    `The database is unreachable for a moment; retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds (a submission with the same idempotency key is not submitted twice).`,
    { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS, cause: error },
  );
}
