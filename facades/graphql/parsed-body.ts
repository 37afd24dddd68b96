import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';

/** Yoga's own ceiling on a body (its `maxRequestBodySize` default), kept for bodies read here. */
export const GRAPHQL_BODY_LIMIT_BYTES = 25_000_000;

const readText = express.text({ type: () => true, limit: GRAPHQL_BODY_LIMIT_BYTES });

/** A plain uncompressed UTF-8 JSON body of a stated length: the common request, read here. */
function isPlainJson(req: Request): boolean {
  if (req.method !== 'POST') return false;
  const [type, ...params] = (req.headers['content-type'] ?? '').toLowerCase().split(';');
  if (type!.trim() !== 'application/json') return false;
  if (params.some((param) => !/^\s*charset\s*=\s*"?utf-8"?\s*$/.test(param))) return false;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return false;
  const length = Number(req.headers['content-length']);
  return Number.isInteger(length) && length > 0 && length <= GRAPHQL_BODY_LIMIT_BYTES;
}

/**
 * Reads a plain JSON body of `POST /graphql` before yoga and hands yoga the parsed object (the express
 * integration yoga's server adapter supports): yoga otherwise pipes every body through a web stream for
 * its size guard, which cost more than executing the query. Anything else (compressed bodies, other
 * types and charsets, no stated length, a body that is not a non-empty JSON object) reaches yoga as
 * before: a body read here but not parsed as an object is handed over as its text, so yoga answers it
 * exactly as it would have.
 */
export function parsedGraphQLBody(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isPlainJson(req)) {
      next();
      return;
    }
    readText(req, res, (error?: unknown) => {
      if (error) {
        // The body did not arrive as announced (cut short, or longer than its Content-Length).
        res.status(400).json({
          errors: [
            {
              message: 'The request body did not match its Content-Length: send the whole body.',
              extensions: {
                type: 'invalid_request_error',
                code: 'invalid_body',
                requestId: res.locals.requestId,
              },
            },
          ],
        });
        return;
      }
      const text = req.body as string;
      req.body = asObject(text) ?? text;
      next();
    });
  };
}

function asObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    return isObject && Object.keys(value).length > 0 ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
