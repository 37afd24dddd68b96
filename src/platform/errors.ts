import type { RateLimitReading } from './rate-limit/reading.ts';

/**
 * The one error vocabulary of the platform. Domain code throws these; each surface maps them once
 * (GraphQL extensions, the REST envelope, JSON-RPC error codes).
 */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'validation_error'
  | 'locked_error'
  | 'rate_limit_error'
  | 'oauth_error'
  | 'upstream_error'
  | 'unavailable_error'
  | 'api_error';

export interface ErrorDetail {
  /** Field path in the caller's terms, e.g. `tracks[0].writers[0].name`. */
  path: string;
  message: string;
  rule?: string;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
  retryAfterSeconds?: number;
  /** A refusal by a rate limit: the budget that refused (its figures go to the caller). */
  rateLimit?: RateLimitReading;
  cause?: unknown;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly type: ErrorType;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly rateLimit: RateLimitReading | undefined;

  constructor(type: ErrorType, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.type = type;
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.rateLimit = options.rateLimit;
  }
}

export const invalidRequest = (message: string, details?: ErrorDetail[], code = 'invalid_request') =>
  new AppError('invalid_request_error', code, message, { details });

export const unauthenticated = (message = 'A valid bearer token is required.', code = 'invalid_token') =>
  new AppError('authentication_error', code, message);

export const forbidden = (message: string, code = 'forbidden') =>
  new AppError('permission_error', code, message);

export const notFound = (message: string, code = 'not_found') =>
  new AppError('not_found_error', code, message);

export const conflict = (message: string, code = 'conflict') => new AppError('conflict_error', code, message);

export const validationFailed = (message: string, details: ErrorDetail[]) =>
  new AppError('validation_error', 'validation_failed', message, { details });

/** 503: a capability this deployment has turned off (e.g. COVER_ART_PROVIDER=none). */
export const unavailable = (message: string, code: string) =>
  new AppError('unavailable_error', code, message);

export const rateLimited = (message: string, retryAfterSeconds: number, rateLimit?: RateLimitReading) =>
  new AppError('rate_limit_error', 'rate_limited', message, {
    retryAfterSeconds,
    ...(rateLimit ? { rateLimit } : {}),
  });

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
