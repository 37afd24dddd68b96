import type { IncomingMessage } from 'node:http';

/** Bodies up to this many bytes, sent plainly, are read by readSmallJsonBody. */
export const SMALL_BODY_BYTES = 64 * 1024;

/**
 * The length of a body readSmallJsonBody may read, or -1 when express.json must (and then does exactly
 * what it always did): a Content-Length from 1 to SMALL_BODY_BYTES, no Transfer-Encoding, no
 * Content-Encoding, UTF-8 (no charset, or charset=utf-8), and a media type the parser takes: exactly
 * application/json, or any type without parameters when `anyType`. Anything else (compressed, chunked,
 * another charset, an empty body, a large one) takes the general path with its every check.
 */
export function smallBodyLength(req: IncomingMessage, anyType: boolean): number {
  const headers = req.headers;
  if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return -1;
  if ((req as { body?: unknown }).body !== undefined || req.readableEnded) return -1;
  const declared = headers['content-length'];
  if (declared === undefined || declared.length > 5 || !/^\d+$/.test(declared)) return -1;
  const length = Number(declared);
  if (length === 0 || length > SMALL_BODY_BYTES) return -1;
  const type = headers['content-type'];
  if (type === undefined) return anyType ? length : -1;
  const lower = type.toLowerCase();
  if (lower === 'application/json' || lower === 'application/json; charset=utf-8') return length;
  return anyType && !lower.includes(';') ? length : -1;
}

const failure = (status: number, type: string, message: string) =>
  Object.assign(new Error(message), { status, statusCode: status, expose: true, type });

/**
 * Reads a body smallBodyLength admitted and hands over its bytes, or the error express.json's reader
 * (raw-body) would give: `request.aborted` when the client goes away, `request.size.invalid` when the
 * bytes do not match the Content-Length. Skips the general reader's per-request machinery (media-type
 * and charset parsing, a decoder, a stream pipeline). The callback runs in the caller's async context
 * (its request scope: request id, rate-limit headers), as express.json's reader keeps it: the request's
 * events fire in the socket's context, and a promise's reaction runs in the context it was made in.
 * That costs nothing, where binding the callback to an AsyncResource cost more than reading the body.
 */
export function readSmallJsonBody(
  req: IncomingMessage,
  length: number,
  callback: (error: Error | null, body?: Buffer) => void,
): void {
  bodyOf(req, length).then(
    (body) => settle(callback, null, body),
    (error: Error) => settle(callback, error),
  );
}

/** Runs the callback; what it throws is an uncaught exception, as from an event listener, not a rejection. */
function settle(callback: (error: Error | null, body?: Buffer) => void, error: Error | null, body?: Buffer) {
  try {
    callback(error, body);
  } catch (thrown) {
    process.nextTick(() => {
      throw thrown;
    });
  }
}

function bodyOf(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (received !== length) {
        reject(failure(400, 'request.size.invalid', 'request size did not match content length'));
        return;
      }
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onAborted = () => {
      cleanup();
      reject(failure(400, 'request.aborted', 'request aborted'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // A close before the end is the client going away (newer Node versions no longer emit `aborted`).
    const onClose = () => {
      if (!req.complete) onAborted();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
    req.on('close', onClose);
  });
}
