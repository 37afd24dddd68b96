import express, { type RequestHandler } from 'express';
import { BASE64_MAX_BYTES, RECOMMENDED_CHUNK_BYTES } from '../schema/uploads/limits.ts';
import { AppError } from '../src/platform/errors.ts';
import { readSmallJsonBody, smallBodyLength } from './small-json-body.ts';

/** Nesting deeper than this is refused before parsing: no document of the API comes near it. */
export const MAX_JSON_DEPTH = 64;

const ENCODINGS = 'identity, gzip, deflate or br';

const invalid = (code: string, message: string) => new AppError('invalid_request_error', code, message);

interface TransportFailure {
  type?: string;
  limit?: number;
  status?: number;
  code?: string;
  message?: string;
  encoding?: string;
  charset?: string;
}

/**
 * What went wrong before a request reached its handler (body reading, decompression, charset, JSON,
 * path decoding), as a precise invalid_request_error; `null` for anything else, which stays unexpected.
 * Each surface renders the answer in its own envelope.
 */
export function transportError(err: unknown, where = ''): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof URIError) {
    return invalid(
      'invalid_path_encoding',
      'The URL path has an invalid percent-encoding (e.g. %ZZ or %uD800): encode it as UTF-8 with %XX escapes.',
    );
  }
  const failure = (err ?? {}) as TransportFailure;
  switch (failure.type) {
    case 'entity.parse.failed':
      return invalid('invalid_json', 'The request body is not valid JSON.');
    case 'entity.too.deep':
      return invalid('json_too_deep', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`);
    case 'entity.too.large':
      return invalid('payload_too_large', tooLargeMessage(failure.limit, where));
    case 'encoding.unsupported':
      return invalid(
        'unsupported_content_encoding',
        `Content-Encoding "${failure.encoding ?? ''}" is not supported: send the body as ${ENCODINGS}.`,
      );
    case 'charset.unsupported':
      return invalid(
        'unsupported_charset',
        `The charset "${failure.charset ?? ''}" is not supported: send JSON as UTF-8 (charset=utf-8).`,
      );
    case 'request.aborted':
      return invalid('request_aborted', 'The client closed the connection before the body was complete.');
    case 'request.size.invalid':
      return invalid('invalid_content_length', 'The body is not as long as its Content-Length header says.');
  }
  if (isDecompressionFailure(failure)) {
    return invalid(
      'invalid_content_encoding',
      'The body could not be decompressed as its Content-Encoding says: send complete compressed data, or drop the header.',
    );
  }
  return null;
}

const MB = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * Too large, with where to go instead: a base64 upload over the ceiling belongs in an upload session
 * (chunked, any size) or a URL import; an agent's tool call, in prepare_local_file_upload.
 */
function tooLargeMessage(limit: number | undefined, where: string): string {
  const size = limit ? `larger than the ${MB(limit)} this endpoint takes` : 'too large';
  if (where === '/v1/files') {
    return (
      `The request body is ${size}. Base64 uploads carry about ${MB(BASE64_MAX_BYTES)} of binary: for larger ` +
      `files create an upload session (POST /v1/uploads) and send chunks of ${RECOMMENDED_CHUNK_BYTES} bytes ` +
      '(recommended_chunk_bytes), or import from a public URL (POST /v1/files/from-url).'
    );
  }
  if (where === '/api/mcp') {
    return (
      `The request body is ${size}. upload_file carries about ${MB(BASE64_MAX_BYTES)} of binary: for larger ` +
      `files call prepare_local_file_upload and send chunks of ${RECOMMENDED_CHUNK_BYTES} bytes to its ` +
      'chunk endpoint, or call upload_file_from_url.'
    );
  }
  return `The request body is ${size}.`;
}

/** zlib (gzip, deflate) and brotli report corrupt or truncated input with these codes. */
function isDecompressionFailure(failure: TransportFailure): boolean {
  const code = failure.code ?? '';
  return (
    code.startsWith('Z_') || code.startsWith('ERR__ERROR_') || code === 'ERR_BROTLI_DECOMPRESSION_FAILED'
  );
}

/**
 * express.json's `verify` hook: refuses deeply nested JSON before JSON.parse and the code behind it walk
 * it recursively. One pass over the bytes; strings are skipped with a native search for their end.
 */
export function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer): void {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === QUOTE) {
      i = closingQuote(body, i);
      if (i === -1) return; // unterminated: JSON.parse reports it
    } else if (byte === 0x7b || byte === 0x5b) {
      depth++;
      if (depth > MAX_JSON_DEPTH) throw Object.assign(new Error('too deep'), { type: 'entity.too.deep' });
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function closingQuote(body: Buffer, opening: number): number {
  let end = body.indexOf(QUOTE, opening + 1);
  while (end !== -1 && isEscaped(body, end)) end = body.indexOf(QUOTE, end + 1);
  return end;
}

function isEscaped(body: Buffer, index: number): boolean {
  let backslashes = 0;
  for (let j = index - 1; j >= 0 && body[j] === BACKSLASH; j--) backslashes++;
  return backslashes % 2 === 1;
}

/** An empty body, which express.json reads as `{}`, refused as not JSON where that reading misleads. */
function refuseEmptyOrDeepJson(req: unknown, res: unknown, body: Buffer): void {
  if (body.length === 0) throw Object.assign(new Error('empty'), { type: 'entity.parse.failed' });
  refuseDeepJson(req, res, body);
}

/**
 * express.json with the depth guard: the one JSON body parser of every surface. `emptyIsInvalid`: an
 * empty body is `invalid_json` instead of `{}`. A small plain body (see smallBodyLength) is read and
 * parsed here, to the same result and the same errors; every other body goes to express.json.
 */
export function jsonBody(
  options: Omit<Parameters<typeof express.json>[0] & object, 'verify'>,
  { emptyIsInvalid = false } = {},
): RequestHandler {
  const verify = emptyIsInvalid ? refuseEmptyOrDeepJson : refuseDeepJson;
  const general = express.json({ ...options, verify });
  const anyType = typeof options.type === 'function';
  const strict = options.strict !== false;
  return (req, res, next) => {
    const length = smallBodyLength(req, anyType);
    if (length === -1) {
      general(req, res, next);
      return;
    }
    readSmallJsonBody(req, length, (error, bytes) => {
      if (error || !bytes) {
        next(error);
        return;
      }
      try {
        verify(req, res, bytes);
      } catch (refusal) {
        next(refusal);
        return;
      }
      try {
        req.body = parseJson(bytes.toString('utf8'), strict);
      } catch {
        next(Object.assign(new Error('invalid JSON'), { status: 400, type: 'entity.parse.failed' }));
        return;
      }
      next();
    });
  };
}

/** JSON.parse as express.json applies it: a leading byte-order mark dropped, `strict` takes only {…} or […]. */
function parseJson(text: string, strict: boolean): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.length === 0) return {};
  if (strict) {
    const first = body[firstNonWhitespace(body)];
    if (first !== '{' && first !== '[') throw new SyntaxError('strict');
  }
  return JSON.parse(body) as unknown;
}

/** The index of the first character that is not JSON whitespace (space, tab, line feed, return). */
function firstNonWhitespace(text: string): number {
  let index = 0;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) break;
  }
  return index;
}
