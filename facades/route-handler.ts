import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { appErrorExtensions } from '../schema/errors.ts';
import { AppError } from '../src/platform/errors.ts';
import { envelopeFrom, sendError } from './rest/errors.ts';

/** An async express handler whose domain errors become the envelope; anything else goes to the masker. */
export function routeHandler(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      await handler(req, res);
    } catch (error) {
      if (error instanceof AppError) sendError(res, envelopeFrom(error.message, appErrorExtensions(error)));
      else next(error);
    }
  };
}
