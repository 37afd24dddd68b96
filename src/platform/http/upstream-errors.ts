import { AppError } from '../errors.ts';
import { describeAddressClass } from './address-policy.ts';
import { AddressRefusedError, HostUnresolvableError } from './refusals.ts';
import { addressRefusal, type UrlCheckContext, unresolvable, urlHost } from './url-guard.ts';

export interface FailureContext extends UrlCheckContext {
  url: URL;
  timeoutSeconds: number;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|^ERR_TLS_|^ERR_SSL_|HOSTNAME_MISMATCH/;

/** The error itself, its causes and the members of an AggregateError (Happy Eyeballs). */
function* chain(error: unknown, depth = 0): Generator<unknown> {
  if (error === null || error === undefined || depth > 5) return;
  yield error;
  if (error instanceof AggregateError) for (const inner of error.errors) yield* chain(inner, depth + 1);
  if (error instanceof Error && error.cause !== undefined) yield* chain(error.cause, depth + 1);
}

const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;

/** Turns a failure before the response headers arrived into an AppError. */
export function mapRequestError(error: unknown, context: FailureContext): AppError {
  const host = urlHost(context.url);
  const errors = [...chain(error)];
  const refused = errors.find((e) => e instanceof AddressRefusedError);
  if (refused) {
    return addressRefusal(refused.host, refused.address, describeAddressClass(refused.reason), context);
  }
  const unresolved = errors.find((e) => e instanceof HostUnresolvableError);
  if (unresolved) return unresolvable(unresolved.host, context, unresolved.cause);
  if (error instanceof AppError) return error;
  const codes = errors.map(codeOf).filter((c) => c !== undefined);
  if (codes.some((c) => TIMEOUT_CODES.has(c))) return timedOut(host, context.timeoutSeconds, error);
  const tls = codes.find((c) => TLS_CODE.test(c));
  if (tls) {
    return new AppError(
      'upstream_error',
      'upstream_tls_failed',
      `The TLS connection to ${host} failed (${tls}).`,
      {
        cause: error,
      },
    );
  }
  const code = codes[0];
  return new AppError(
    'upstream_error',
    'upstream_unreachable',
    `Could not reach ${host}${code ? ` (${code})` : ''}.`,
    { cause: error },
  );
}

export function timedOut(host: string, seconds: number, cause?: unknown): AppError {
  return new AppError(
    'upstream_error',
    'upstream_timeout',
    `${host} did not answer within ${seconds} seconds.`,
    {
      cause,
    },
  );
}

/** Turns a failure while streaming the response body into an AppError. */
export function mapBodyError(error: unknown, context: FailureContext): AppError {
  const host = urlHost(context.url);
  if (error instanceof AppError) return error;
  const codes = [...chain(error)].map(codeOf).filter((c) => c !== undefined);
  if (codes.some((c) => TIMEOUT_CODES.has(c))) {
    return new AppError(
      'upstream_error',
      'upstream_timeout',
      `${host} stopped sending the response body for ${context.timeoutSeconds} seconds.`,
      { cause: error },
    );
  }
  return new AppError(
    'upstream_error',
    'upstream_interrupted',
    `The response from ${host} was interrupted.`,
    {
      cause: error,
    },
  );
}
