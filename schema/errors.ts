import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { databaseRefusal } from '../src/platform/db/refusals.ts';
import { databaseUnavailable } from '../src/platform/db/unavailable.ts';
import { AppError, type ErrorType } from '../src/platform/errors.ts';
import type { Logger } from '../src/platform/logger.ts';
import type { RateLimitReading } from '../src/platform/rate-limit/index.ts';
import { currentRequestId } from '../src/platform/request-scope.ts';

export interface ErrorExtensions {
  type: ErrorType;
  code: string;
  details?: { path: string; message: string; rule?: string }[];
  retryAfterSeconds?: number;
  /** A refusal by a rate limit: the budget that refused (GraphQL and the agent surface carry it). */
  rateLimit?: RateLimitReading;
  requestId?: string;
}

function findAppError(error: unknown): AppError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof AppError) return current;
    current =
      (current as { originalError?: unknown; cause?: unknown }).originalError ??
      (current as { cause?: unknown }).cause;
  }
  return null;
}

export function appErrorExtensions(error: AppError): ErrorExtensions {
  return {
    type: error.type,
    code: error.code,
    ...(error.details ? { details: error.details } : {}),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    ...(error.rateLimit ? { rateLimit: error.rateLimit } : {}),
  };
}

/**
 * `original` in other words: its message and extensions replaced, its place in the document (nodes,
 * or source and positions, from which a GraphQL server writes `locations` again) and its path kept.
 */
function rephrased(
  original: GraphQLError,
  message: string,
  extensions: Record<string, unknown>,
): GraphQLError {
  return new GraphQLError(message, {
    nodes: original.nodes,
    source: original.source,
    positions: original.positions,
    path: original.path,
    extensions,
  });
}

/**
 * Gives every GraphQL error the platform's vocabulary in `extensions`. Domain errors keep their message;
 * GraphQL's own request errors (syntax, validation, variables) become invalid_request_error; anything
 * else is logged with the request id and masked.
 */
/** Without a request id (a WebSocket message), the masked error and its log line share a fresh one. */
export function normaliseError(
  error: GraphQLError | Error,
  logger: Logger,
  requestId: string = currentRequestId() ?? randomUUID(),
): GraphQLError {
  const graphQLError =
    error instanceof GraphQLError ? error : new GraphQLError(error.message, { originalError: error });
  const appError = findAppError(graphQLError.originalError);
  if (appError) {
    return rephrased(graphQLError, appError.message, { ...appErrorExtensions(appError) });
  }
  if (!graphQLError.originalError || graphQLError.originalError instanceof GraphQLError) {
    // Errors of compiled operations (graphql-jit) may carry no extensions object at all.
    const extensions = (graphQLError.extensions ?? {}) as Partial<ErrorExtensions> & Record<string, unknown>;
    if (extensions.type) return graphQLError;
    return rephrased(graphQLError, graphQLError.message, {
      ...extensions,
      type: 'invalid_request_error',
      code: 'invalid_graphql_request',
    });
  }
  const refused = databaseRefusal(graphQLError.originalError);
  if (refused) {
    // An edge check is missing: worth a warning, but the caller gets a precise 400, not a masked 500.
    logger.warn(
      { err: graphQLError.originalError, requestId, path: graphQLError.path },
      'value refused by the database',
    );
    return rephrased(graphQLError, refused.message, { ...appErrorExtensions(refused) });
  }
  const unavailable = databaseUnavailable(graphQLError.originalError);
  if (unavailable) {
    // The outage itself is logged once by the health monitor; each request only at debug level.
    logger.debug({ err: graphQLError.originalError, requestId }, 'database unavailable');
    return rephrased(graphQLError, unavailable.message, { ...appErrorExtensions(unavailable) });
  }
  logger.error({ err: graphQLError.originalError, requestId, path: graphQLError.path }, 'unexpected error');
  return rephrased(graphQLError, 'An unexpected error occurred. Quote the request id when reporting it.', {
    type: 'api_error',
    code: 'internal_error',
    requestId,
  });
}

/** The type `normaliseError` gives an error, without logging or building it (the metrics count it). */
export function errorTypeOf(error: GraphQLError): ErrorType {
  const appError = findAppError(error.originalError);
  if (appError) return appError.type;
  if (!error.originalError || error.originalError instanceof GraphQLError) {
    return ((error.extensions as Partial<ErrorExtensions> | undefined)?.type ??
      'invalid_request_error') as ErrorType;
  }
  return (
    databaseRefusal(error.originalError)?.type ??
    databaseUnavailable(error.originalError)?.type ??
    'api_error'
  );
}

export function errorExtensions(error: GraphQLError): ErrorExtensions {
  const extensions = error.extensions as Partial<ErrorExtensions>;
  return {
    type: extensions.type ?? 'api_error',
    code: extensions.code ?? 'internal_error',
    ...(extensions.details ? { details: extensions.details } : {}),
    ...(extensions.retryAfterSeconds === undefined
      ? {}
      : { retryAfterSeconds: extensions.retryAfterSeconds }),
    ...(extensions.rateLimit ? { rateLimit: extensions.rateLimit } : {}),
    ...(extensions.requestId ? { requestId: extensions.requestId } : {}),
  };
}
