import type { NextFunction, Request, Response } from 'express';
import type { ErrorType } from '../../src/platform/errors.ts';
import type { RateLimitReading } from '../../src/platform/rate-limit/index.ts';

/** What yoga reads from a POST body (GraphQL over HTTP, plus yoga's form and multipart readers). */
const ACCEPTED = [
  'application/json',
  'application/graphql+json',
  'application/graphql',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
];

/**
 * A POST whose body yoga cannot read gets 415 with a GraphQL error in the one vocabulary, naming what to
 * send, instead of yoga's empty 415.
 */
export function refuseUnreadableGraphQLBodies(req: Request, res: Response, next: NextFunction): void {
  const type = mediaTypeOf(req);
  if (req.method !== 'POST' || ACCEPTED.includes(type)) {
    next();
    return;
  }
  sendGraphQLRefusal(res, 415, {
    type: 'invalid_request_error',
    code: 'unsupported_media_type',
    message: `POST /graphql takes a JSON body: send Content-Type: application/json (got ${type ? `"${type}"` : 'none'}).`,
  });
}

/** The request's media type, lower case, without parameters (`''` when none is sent). */
export const mediaTypeOf = (req: Request): string => {
  const header = req.headers['content-type'];
  if (header === undefined) return '';
  // The common case, already in its reading: no parameters, no spaces, lower case.
  if (header === 'application/json') return header;
  return header.split(';')[0]!.trim().toLowerCase();
};

/** A request refused before yoga, answered as a GraphQL response: one error, in the one vocabulary. */
export function sendGraphQLRefusal(
  res: Response,
  status: number,
  refusal: {
    type: ErrorType;
    code: string;
    message: string;
    retryAfterSeconds?: number | undefined;
    rateLimit?: RateLimitReading | undefined;
  },
): void {
  const { type, code, message, retryAfterSeconds, rateLimit } = refusal;
  res.status(status).json({
    errors: [
      {
        message,
        extensions: {
          type,
          code,
          ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
          ...(rateLimit ? { rateLimit } : {}),
          requestId: res.locals.requestId,
        },
      },
    ],
  });
}
