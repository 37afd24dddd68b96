import type { NextFunction, Request, Response } from 'express';
import type { AppServices } from '../schema/services.ts';
import { sendError } from './rest/errors.ts';

/** express.json() failures (bad JSON, too large) become the documented envelope, not an HTML page. */
export function bodyParserErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const error = err as { type?: string; status?: number; message?: string };
  if (error?.type === 'entity.parse.failed') {
    sendError(res, {
      type: 'invalid_request_error',
      code: 'invalid_json',
      message: 'The request body is not valid JSON.',
    });
    return;
  }
  if (error?.type === 'entity.too.large') {
    sendError(res, {
      type: 'invalid_request_error',
      code: 'payload_too_large',
      message: 'The request body is too large.',
    });
    return;
  }
  if (error?.type === 'encoding.unsupported' || error?.type === 'charset.unsupported') {
    sendError(res, {
      type: 'invalid_request_error',
      code: 'unsupported_encoding',
      message: error.message ?? 'Unsupported encoding.',
    });
    return;
  }
  next(err);
}

/** Last resort: log with the request id, answer a masked api_error. */
export function unexpectedErrors(app: AppServices) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const requestId = String(res.locals.requestId ?? '');
    app.logger.error({ err, requestId }, 'unhandled error');
    if (res.headersSent) return;
    sendError(res, {
      type: 'api_error',
      code: 'internal_error',
      message: 'An unexpected error occurred. Quote the request id when reporting it.',
      requestId,
    });
  };
}
