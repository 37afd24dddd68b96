import type { Response } from 'express';
import type { ErrorExtensions } from '../../schema/errors.ts';
import type { ErrorType } from '../../src/platform/errors.ts';
import { countError } from '../metrics.ts';
import { sendJson } from '../send-json.ts';

const HTTP_STATUS: Record<ErrorType, number> = {
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

export function isErrorType(value: unknown): value is ErrorType {
  return typeof value === 'string' && Object.hasOwn(HTTP_STATUS, value);
}

export function statusForError(type: ErrorType): number {
  return HTTP_STATUS[type] ?? 500;
}

export interface ErrorEnvelope {
  type: ErrorType;
  code: string;
  message: string;
  details?: { path: string; message: string; rule?: string }[];
  retryAfterSeconds?: number;
  requestId?: string;
}

/** The documented REST error body, with the headers its status calls for. */
export function sendError(res: Response, envelope: ErrorEnvelope): void {
  if (envelope.type === 'authentication_error') {
    // The app's locals hold the resource metadata URL: an agent starts its OAuth discovery from it.
    const metadata = res.app?.locals.resourceMetadata as string | undefined;
    res.setHeader(
      'WWW-Authenticate',
      metadata ? `Bearer realm="tributary", resource_metadata="${metadata}"` : 'Bearer realm="tributary"',
    );
  }
  if (envelope.retryAfterSeconds !== undefined)
    res.setHeader('Retry-After', String(Math.ceil(envelope.retryAfterSeconds)));
  const requestId = envelope.requestId || (res.locals.requestId as string | undefined);
  countError(res, envelope.type);
  sendJson(res, statusForError(envelope.type), requestId ? { ...envelope, requestId } : envelope);
}

export function envelopeFrom(message: string, extensions: ErrorExtensions): ErrorEnvelope {
  return {
    type: extensions.type,
    code: extensions.code,
    message,
    ...(extensions.details ? { details: extensions.details } : {}),
    ...(extensions.retryAfterSeconds === undefined
      ? {}
      : { retryAfterSeconds: extensions.retryAfterSeconds }),
    ...(extensions.requestId ? { requestId: extensions.requestId } : {}),
  };
}
