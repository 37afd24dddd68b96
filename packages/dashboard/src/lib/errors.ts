/** A field path the service names in an error, with what is wrong there. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The service's error vocabulary, as `errors[].extensions` of a GraphQL answer carries it. */
interface Envelope {
  type: string;
  code: string;
  message: string;
  details?: ErrorDetail[];
  retryAfterSeconds?: number;
  requestId?: string;
}

/** An error the API answered (or the network's failure to answer): what a page shows in its alert. */
export class ApiError extends Error {
  override name = 'ApiError';
  /** `invalid_request_error`, `not_found_error`, … (the service's error types), or `network_error`. */
  readonly type: string;
  /** The precise reason: `release_not_found`, `insufficient_credits`, … */
  readonly code: string;
  readonly details: readonly ErrorDetail[];
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(envelope: Envelope) {
    super(envelope.message);
    this.type = envelope.type;
    this.code = envelope.code;
    this.details = envelope.details ?? [];
    this.requestId = envelope.requestId;
    this.retryAfterSeconds = envelope.retryAfterSeconds;
  }
}

/** The session's token was refused (signed out, expired): the page offers to sign in again. */
export class SessionEndedError extends ApiError {
  override name = 'SessionEndedError';
}

/** No such resource, or another account's (the API answers both the same). */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/** Refused for now (rate limit, a dependency away): `retryAfterSeconds` says when to try again. */
export class RetryLaterError extends ApiError {
  override name = 'RetryLaterError';
}

const TYPE_OF_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  503: 'unavailable_error',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The typed error of one GraphQL error (its `extensions`), or of an HTTP status with no envelope. */
export function apiErrorOf(error: unknown, status: number): ApiError {
  const extensions = isObject(error) && isObject(error.extensions) ? error.extensions : {};
  const message =
    isObject(error) && typeof error.message === 'string'
      ? error.message
      : `The service answered ${status} without a reason.`;
  const envelope: Envelope = {
    type: typeof extensions.type === 'string' ? extensions.type : (TYPE_OF_STATUS[status] ?? 'api_error'),
    code: typeof extensions.code === 'string' ? extensions.code : `http_${status}`,
    message,
    ...(Array.isArray(extensions.details) ? { details: extensions.details as ErrorDetail[] } : {}),
    ...(typeof extensions.retryAfterSeconds === 'number'
      ? { retryAfterSeconds: extensions.retryAfterSeconds }
      : {}),
    ...(typeof extensions.requestId === 'string' ? { requestId: extensions.requestId } : {}),
  };
  if (envelope.type === 'authentication_error') return new SessionEndedError(envelope);
  if (envelope.type === 'not_found_error') return new NotFoundError(envelope);
  if (envelope.type === 'rate_limit_error' || envelope.type === 'unavailable_error')
    return new RetryLaterError(envelope);
  return new ApiError(envelope);
}

/** The request never got an answer (offline, the connection dropped). */
export const networkError = () =>
  new RetryLaterError({
    type: 'network_error',
    code: 'network_error',
    message: 'The service could not be reached: check the connection and try again.',
  });
