/** A field path the service names in an error (`tracks[0].writers[0].name`), with what is wrong there. */
export interface ErrorDetail {
  path: string;
  message: string;
  rule?: string;
}

/**
 * The service's error vocabulary, the same on every surface: a REST error body, or `extensions` of a
 * GraphQL error (docs/errors.md).
 */
export interface ErrorEnvelope {
  type: string;
  code: string;
  message: string;
  details?: ErrorDetail[];
  retryAfterSeconds?: number;
  requestId?: string;
}

/** The REST status of each error type (GraphQL answers 200 with the type in `extensions`). */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  validation_error: 422,
  locked_error: 423,
  rate_limit_error: 429,
  oauth_error: 400,
  upstream_error: 502,
  unavailable_error: 503,
  api_error: 500,
};

const TYPE_OF_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  422: 'validation_error',
  423: 'locked_error',
  429: 'rate_limit_error',
  502: 'upstream_error',
  503: 'unavailable_error',
};

/** An error the service answered: its envelope, the status and the request id to quote to support. */
export class TributaryError extends Error {
  override name = 'TributaryError';
  /** The HTTP status: the REST status, or for a GraphQL error the status REST gives its type. */
  readonly status: number;
  /** The status the answer came with (200 for a GraphQL answer carrying errors). */
  readonly httpStatus: number;
  /** `invalid_request_error`, `authentication_error`, … (docs/errors.md). */
  readonly type: string;
  /** The precise reason: `release_not_found`, `insufficient_credits`, `validation_failed`, … */
  readonly code: string;
  /** The field paths at fault, when the service names them. */
  readonly details: ErrorDetail[];
  /** The service's request id (the `X-Request-Id` of the answer): quote it when asking for help. */
  readonly requestId: string | undefined;
  /** Seconds to wait before trying again, when the service says. */
  readonly retryAfterSeconds: number | undefined;
  /** Every GraphQL error of the answer (a REST error has one). */
  readonly errors: readonly ErrorEnvelope[];

  constructor(
    envelope: ErrorEnvelope,
    status: number,
    errors: readonly ErrorEnvelope[] = [envelope],
    httpStatus: number = status,
  ) {
    super(envelope.message);
    this.status = status;
    this.httpStatus = httpStatus;
    this.type = envelope.type;
    this.code = envelope.code;
    this.details = envelope.details ?? [];
    this.requestId = envelope.requestId;
    this.retryAfterSeconds = envelope.retryAfterSeconds;
    this.errors = errors;
  }

  /** The first field path at fault (`tracks[0].title`), if any. */
  get field(): string | undefined {
    return this.details[0]?.path;
  }
}

/** 400 and 422: the request or its content was refused; `details` name the fields. */
export class ValidationError extends TributaryError {
  override name = 'ValidationError';
}

/** 401: a missing, invalid, expired or revoked token. */
export class AuthenticationError extends TributaryError {
  override name = 'AuthenticationError';
}

/** 403: the token lacks the scope, or the server runs trusted documents only. */
export class PermissionError extends TributaryError {
  override name = 'PermissionError';
}

/** 404: no such resource (another account's resources are "not found" too). */
export class NotFoundError extends TributaryError {
  override name = 'NotFoundError';
}

/** 409: the state forbids it (`insufficient_credits`, `webhook_limit_reached`, …). */
export class ConflictError extends TributaryError {
  override name = 'ConflictError';
}

/** 429: over a rate limit; `retryAfterSeconds` says when to try again. */
export class RateLimitError extends TributaryError {
  override name = 'RateLimitError';
}

/** 503: the capability is off on this deployment, or the database is away for a moment. */
export class UnavailableError extends TributaryError {
  override name = 'UnavailableError';
}

const CLASS_OF_TYPE: Record<string, typeof TributaryError> = {
  invalid_request_error: ValidationError,
  validation_error: ValidationError,
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  not_found_error: NotFoundError,
  conflict_error: ConflictError,
  rate_limit_error: RateLimitError,
  unavailable_error: UnavailableError,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Seconds from a `Retry-After` header: delay-seconds or an HTTP date. */
function retryAfterSecondsOf(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

/** An envelope read defensively: the service's, or what can be made of another body. */
function envelopeOf(
  value: unknown,
  status: number,
  fallbackMessage: string,
  headers?: Headers,
): ErrorEnvelope {
  const fields = isObject(value) ? value : {};
  const type =
    typeof fields.type === 'string'
      ? fields.type
      : (TYPE_OF_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'));
  const retryAfter =
    typeof fields.retryAfterSeconds === 'number'
      ? fields.retryAfterSeconds
      : retryAfterSecondsOf(headers?.get('retry-after') ?? null);
  const requestId =
    typeof fields.requestId === 'string' ? fields.requestId : (headers?.get('x-request-id') ?? undefined);
  return {
    type,
    code: typeof fields.code === 'string' ? fields.code : type,
    message: typeof fields.message === 'string' ? fields.message : fallbackMessage,
    ...(Array.isArray(fields.details) ? { details: fields.details as ErrorDetail[] } : {}),
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
    ...(requestId ? { requestId } : {}),
  };
}

function create(
  envelope: ErrorEnvelope,
  status: number,
  errors: readonly ErrorEnvelope[],
  httpStatus: number,
): TributaryError {
  const ErrorClass = CLASS_OF_TYPE[envelope.type] ?? TributaryError;
  return new ErrorClass(envelope, status, errors, httpStatus);
}

/**
 * The typed error of an answer's body: a REST envelope (`{type, code, message, …}`) or a GraphQL
 * answer (`{errors: [{message, extensions}]}`). `status` is the HTTP status (200 for a GraphQL answer
 * with errors: the status is then the REST status of the first error's type).
 */
export function errorFromBody(body: unknown, status: number, headers?: Headers): TributaryError {
  const fallback = `HTTP ${status}`;
  if (isObject(body) && Array.isArray(body.errors) && body.errors.length > 0) {
    const envelopes = body.errors.map((error) => {
      const graphqlError = isObject(error) ? error : {};
      const extensions = isObject(graphqlError.extensions) ? graphqlError.extensions : {};
      return envelopeOf(
        { message: graphqlError.message, ...extensions },
        status >= 400 ? status : 0,
        fallback,
        headers,
      );
    });
    const first = envelopes[0]!;
    const effective = status >= 400 ? status : (STATUS_OF_TYPE[first.type] ?? 500);
    return create(first, effective, envelopes, status);
  }
  const envelope = envelopeOf(body, status, fallback, headers);
  return create(envelope, status, [envelope], status);
}

/** The typed error of a response that is not a success. */
export async function errorFromResponse(response: Response): Promise<TributaryError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    body = { message: text ? text.slice(0, 500) : `HTTP ${response.status} ${response.statusText}` };
  }
  return errorFromBody(body, response.status, response.headers);
}
