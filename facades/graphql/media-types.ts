import type { NextFunction, Request, Response } from 'express';

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
  const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (req.method !== 'POST' || ACCEPTED.includes(type)) {
    next();
    return;
  }
  res.status(415).json({
    errors: [
      {
        message: `POST /graphql takes a JSON body: send Content-Type: application/json (got ${type ? `"${type}"` : 'none'}).`,
        extensions: {
          type: 'invalid_request_error',
          code: 'unsupported_media_type',
          requestId: res.locals.requestId,
        },
      },
    ],
  });
}
