import type { ServerResponse } from 'node:http';

/**
 * A JSON text written straight to node's response, with the headers express's `res.json` sends
 * (`Content-Type: application/json; charset=utf-8`, `Content-Length`) but without its per-call
 * charset parsing, and as one string, so that the head and the body leave in one socket write (express
 * turns a body of 1,000 characters or more into a Buffer, which node writes as a second chunk).
 */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** `value` as JSON (see sendJsonText); `undefined` answers an empty body, as `res.json` does. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendJsonText(res, status, JSON.stringify(value) ?? '');
}
