import { JSONRPCErrorException } from 'json-rpc-2.0';
import type { ErrorExtensions } from '../../schema/errors.ts';
import { databaseUnavailable } from '../../src/platform/db/unavailable.ts';
import { AppError, type ErrorType } from '../../src/platform/errors.ts';
import { currentRequestId } from '../../src/platform/request-scope.ts';
import { statusForError } from '../rest/errors.ts';

/**
 * The agent facade's one error mapping. Platform errors become JSON-RPC errors inside an HTTP 200 body:
 * `error.code` is the HTTP status of the error type, `error.data` carries the vocabulary plus a hint.
 * Protocol-level problems keep the JSON-RPC reserved codes below.
 */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_METHOD_NOT_FOUND = -32601;
export const JSONRPC_INVALID_PARAMS = -32602;
/** Transport-level refusals (wrong HTTP method), as the MCP SDK's own servers answer them. */
export const JSONRPC_SERVER_ERROR = -32000;

const HINTS: Record<ErrorType, string> = {
  invalid_request_error: 'Fix the request as the message says; tools/list gives every inputSchema.',
  authentication_error:
    'Send a bearer token with scope svc:mcp (Authorization header) or pass access_token as an argument.',
  permission_error:
    'This token or account may not do this: check the token scopes and who owns the resource.',
  not_found_error: 'Check the id or name; resources owned by another account are not found either.',
  conflict_error: 'The resource is not in a state that allows this; read its current state first.',
  validation_error:
    'Fix the fields listed in details; read mcp://docs/metadata-rules-hitlist for the rules most often broken.',
  locked_error: 'The account is locked; the account holder must unlock it before retrying.',
  rate_limit_error: 'Retry after retryAfterSeconds.',
  oauth_error: 'Restart the authorization flow.',
  upstream_error: 'A provider failed; safe to retry with backoff.',
  unavailable_error: 'This capability is turned off on this environment; retrying will not help.',
  api_error: 'Unexpected error: retry later and quote requestId when reporting it.',
};

export interface RpcErrorData extends Partial<ErrorExtensions> {
  hint?: string;
  [key: string]: unknown;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data: RpcErrorData;
}

/** Codes whose hint is not their type's. */
const CODE_HINTS: Record<string, string> = {
  database_unavailable:
    'The service lost its database for a moment: retry after retryAfterSeconds, a submission with the same idempotencyKey.',
};

/** A platform error (as GraphQL extensions carry it) in JSON-RPC terms. */
export function rpcErrorFrom(message: string, extensions: ErrorExtensions): RpcErrorObject {
  const requestId = extensions.requestId ?? currentRequestId();
  return {
    code: statusForError(extensions.type),
    message,
    data: {
      type: extensions.type,
      code: extensions.code,
      ...(extensions.details ? { details: extensions.details } : {}),
      ...(extensions.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: extensions.retryAfterSeconds }),
      ...(extensions.rateLimit ? { rateLimit: extensions.rateLimit } : {}),
      ...(requestId ? { requestId } : {}),
      hint: CODE_HINTS[extensions.code] ?? HINTS[extensions.type] ?? HINTS.api_error,
    },
  };
}

export function rpcErrorFromAppError(error: AppError, requestId?: string): RpcErrorObject {
  return rpcErrorFrom(error.message, {
    type: error.type,
    code: error.code,
    ...(error.details ? { details: error.details } : {}),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    ...(error.rateLimit ? { rateLimit: error.rateLimit } : {}),
    ...(requestId ? { requestId } : {}),
  });
}

export function toException(error: RpcErrorObject): JSONRPCErrorException {
  return new JSONRPCErrorException(error.message, error.code, error.data);
}

/** Invalid params (-32602), with the offending paths in `data.details` like every other error. */
export function invalidParams(
  message: string,
  details: { path: string; message: string }[] = [],
  extra: Record<string, unknown> = {},
): JSONRPCErrorException {
  return new JSONRPCErrorException(message, JSONRPC_INVALID_PARAMS, {
    type: 'invalid_request_error',
    code: 'invalid_params',
    ...(details.length > 0 ? { details } : {}),
    ...extra,
  });
}

/** Anything a method throws, as a JSON-RPC error object; unexpected errors are masked (and logged by the caller). */
export function rpcErrorFromThrown(error: unknown, requestId: string): RpcErrorObject | null {
  if (error instanceof JSONRPCErrorException) {
    return { code: error.code, message: error.message, data: (error.data ?? {}) as RpcErrorData };
  }
  if (error instanceof AppError) return rpcErrorFromAppError(error, requestId);
  const unavailable = databaseUnavailable(error);
  if (unavailable) return rpcErrorFromAppError(unavailable, requestId);
  return null;
}

export function unexpectedError(requestId: string): RpcErrorObject {
  return rpcErrorFrom('An unexpected error occurred. Quote the request id when reporting it.', {
    type: 'api_error',
    code: 'internal_error',
    requestId,
  });
}
