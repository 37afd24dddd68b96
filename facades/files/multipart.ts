import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, invalidRequest } from '../../src/platform/errors.ts';
import { writeStreamAtomically } from '../../src/platform/scratch.ts';

export interface MultipartResult {
  fields: Record<string, string>;
  /** The file part, written to `target`, if there was one. */
  file: { field: string; fileName: string; mimeType: string; size: number } | null;
}

const malformed = () =>
  invalidRequest(
    'The multipart body is malformed or ends before its closing boundary (--boundary--).',
    undefined,
    'invalid_multipart',
  );

/**
 * Streams a multipart body: the one file part (named `fileField`) goes straight to `target` on disk
 * (atomically, at most `maxBytes`), the text fields are collected. Memory stays flat.
 *
 * Every stream involved has its errors handled: busboy destroys an unfinished part with an error when
 * the form ends early, and an unlistened 'error' event would take the whole process down.
 */
export function readMultipart(
  req: Request,
  fileField: string,
  target: string,
  maxBytes: number,
): Promise<MultipartResult> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fieldSize: 64 * 1024 } });
    } catch {
      reject(invalidRequest('The body is not valid multipart/form-data.', undefined, 'invalid_multipart'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: MultipartResult['file'] = null;
    let writing: Promise<void> = Promise.resolve();
    let settled = false;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error instanceof AppError ? error : malformed());
      // Stop parsing; drain what the client still sends so the error answer reaches it.
      req.unpipe(parser);
      parser.destroy();
      req.resume();
    };

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      stream.on('error', () => {});
      if (name !== fileField || settled) {
        stream.resume();
        return;
      }
      writing = writeStreamAtomically(stream, target, maxBytes).then((size) => {
        file = { field: name, fileName: info.filename ?? '', mimeType: info.mimeType, size };
      });
      writing.catch(fail);
    });
    parser.on('filesLimit', () =>
      fail(invalidRequest('Send one file per request.', undefined, 'too_many_files')),
    );
    parser.on('error', fail);
    parser.on('close', () => {
      writing.then(() => {
        if (settled) return;
        settled = true;
        resolve({ fields, file });
      }, fail);
    });
    req.once('close', () => {
      if (!req.complete)
        fail(invalidRequest('The request body was cut off.', undefined, 'invalid_multipart'));
    });
    req.pipe(parser);
  });
}
