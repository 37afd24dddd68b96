import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { appErrorExtensions } from '../schema/errors.ts';
import { AppError } from '../src/platform/errors.ts';
import type { RequestMetric } from '../src/platform/metrics/index.ts';
import { observeRequest } from './metrics.ts';
import { envelopeFrom, sendError } from './rest/errors.ts';

/**
 * An async express handler whose domain errors become the envelope; anything else goes to the masker.
 * With a metric, the answered request is observed under it.
 */
export function routeHandler(
  handler: (req: Request, res: Response) => Promise<void>,
  metric?: RequestMetric,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      await handler(req, res);
    } catch (error) {
      if (!(error instanceof AppError)) {
        if (metric) observeRequest(metric, res, true);
        next(error);
        return;
      }
      sendError(res, envelopeFrom(error.message, appErrorExtensions(error)));
    }
    if (metric) observeRequest(metric, res);
  };
}
