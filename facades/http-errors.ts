import type { NextFunction, Request, Response } from 'express';
import type { AppServices } from '../schema/services.ts';
import { databaseRefusal } from '../src/platform/db/refusals.ts';
import { databaseUnavailable } from '../src/platform/db/unavailable.ts';
import { sendError } from './rest/errors.ts';
import { transportError } from './transport-errors.ts';

/** Failures before a handler (body, encoding, path) become the documented envelope, never a 500. */
export function bodyParserErrors(err: unknown, req: Request, res: Response, next: NextFunction): void {
  const error =
    transportError(err, `${req.baseUrl}${req.path}`) ?? databaseRefusal(err) ?? databaseUnavailable(err);
  if (!error) {
    next(err);
    return;
  }
  if (res.headersSent) return;
  sendError(res, {
    type: error.type,
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
  });
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
