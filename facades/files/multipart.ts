import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, invalidRequest } from '../../src/platform/errors.ts';
import { writeStreamAtomically } from '../../src/platform/scratch.ts';

export interface MultipartResult {
  fields: Record<string, string>;
  /** The file part, written to `target`, if there was one. */
  file: { field: string; fileName: string; mimeType: string; size: number } | null;
}

/**
 * Streams a multipart body: the one file part (named `fileField`) goes straight to `target` on disk
 * (atomically, at most `maxBytes`), the text fields are collected. Memory stays flat.
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
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== fileField) {
        stream.resume();
        return;
      }
      writing = writeStreamAtomically(stream, target, maxBytes).then((size) => {
        file = { field: name, fileName: info.filename ?? '', mimeType: info.mimeType, size };
      });
      writing.catch(() => stream.resume());
    });
    parser.on('filesLimit', () =>
      reject(invalidRequest('Send one file per request.', undefined, 'too_many_files')),
    );
    parser.on('error', (error) =>
      reject(
        error instanceof AppError
          ? error
          : invalidRequest('The multipart body is malformed.', undefined, 'invalid_multipart'),
      ),
    );
    parser.on('close', () => {
      writing.then(() => resolve({ fields, file }), reject);
    });
    req.pipe(parser);
  });
}
