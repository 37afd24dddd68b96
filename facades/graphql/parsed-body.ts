import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppServices } from '../../schema/services.ts';
import { UNKNOWN_OPERATION } from '../../src/platform/metrics/index.ts';
import { countError, observeRequest } from '../metrics.ts';
import { statusForError } from '../rest/errors.ts';
import { jsonBody, transportError } from '../transport-errors.ts';
import { mediaTypeOf, sendGraphQLRefusal } from './media-types.ts';

/** Yoga's own ceiling on a body (its `maxRequestBodySize` default), kept for the bodies read here. */
export const GRAPHQL_BODY_LIMIT_BYTES = 25_000_000;

// Any JSON value (a non-object gets yoga's own answer below), with the depth guard of every surface; an
// empty body is not JSON (express.json would read it as `{}`).
const readJson = jsonBody(
  { limit: GRAPHQL_BODY_LIMIT_BYTES, strict: false, type: () => true },
  { emptyIsInvalid: true },
);

const isJsonPost = (req: Request) => req.method === 'POST' && mediaTypeOf(req) === 'application/json';

/**
 * Reads the JSON body of `POST /graphql` before yoga, as the other surfaces read theirs: compressed
 * bodies (gzip, deflate, br) are inflated, and a body that cannot be read (bad JSON, a corrupt or unknown
 * encoding, a charset other than UTF-8, too deep, too large) is answered in the one error vocabulary
 * (`invalid_json`, `invalid_content_encoding`, …) as a GraphQL error. Yoga then gets the parsed object,
 * which its server adapter takes from express, instead of piping every body through a web stream for its
 * size guard (that pipeline cost more than running the query). A value that is not a non-empty object
 * (an array, a string, `{}`) is handed to yoga as its text, for yoga's own answer. Other content types
 * (`application/graphql+json`, forms, multipart) reach yoga untouched.
 */
export function parsedGraphQLBody(app: AppServices): RequestHandler {
  const unknownOperation = app.metrics.graphqlOperation(UNKNOWN_OPERATION);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isJsonPost(req)) {
      next();
      return;
    }
    readJson(req, res, (error?: unknown) => {
      if (error) {
        const refusal = transportError(error, '/graphql');
        if (!refusal) {
          next(error);
          return;
        }
        // Counted as yoga counts what it refuses: an error of its type, a failed request of no operation.
        countError(res, refusal.type, 'graphql');
        res.once('finish', () => observeRequest(unknownOperation, res, true));
        sendGraphQLRefusal(res, statusForError(refusal.type), refusal);
        return;
      }
      const value: unknown = req.body;
      const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
      if (!isObject || Object.keys(value).length === 0) req.body = JSON.stringify(value);
      next();
    });
  };
}
