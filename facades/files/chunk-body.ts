import { Readable } from 'node:stream';
import type { Request } from 'express';
import { invalidRequest } from '../../src/platform/errors.ts';
import { writeStreamAtomically } from '../../src/platform/scratch.ts';
import { readMultipart } from './multipart.ts';

export interface ReceivedChunk {
  sessionId: string;
  chunkIndex: number;
  type: string | null;
  /** The bytes, on scratch disk, waiting to be moved into the session. */
  tempPath: string;
}

function chunkIndexOf(raw: unknown): number {
  const text = String(raw ?? '');
  if (!/^\d+$/.test(text)) {
    throw invalidRequest('chunkIndex must be a non-negative integer.', [
      { path: 'chunkIndex', message: 'not an integer' },
    ]);
  }
  return Number.parseInt(text, 10);
}

function sessionIdOf(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0) {
    throw invalidRequest('sessionId is required.', [{ path: 'sessionId', message: 'missing' }]);
  }
  return raw;
}

/**
 * The three documented chunk bodies: raw octet-stream (x-session-id, x-chunk-index, x-upload-type),
 * multipart (chunk, chunkIndex, sessionId, type) and JSON (chunkBase64, chunkIndex, sessionId, type).
 */
export async function receiveChunkBody(
  req: Request,
  tempPath: string,
  maxBytes: number,
): Promise<ReceivedChunk> {
  const contentType = (req.get('content-type') ?? '').toLowerCase();
  if (contentType.startsWith('multipart/form-data')) {
    const { fields, file } = await readMultipart(req, 'chunk', tempPath, maxBytes);
    if (!file)
      throw invalidRequest('The multipart body has no `chunk` file part.', [
        { path: 'chunk', message: 'missing' },
      ]);
    return {
      sessionId: sessionIdOf(fields.sessionId),
      chunkIndex: chunkIndexOf(fields.chunkIndex),
      type: fields.type ?? null,
      tempPath,
    };
  }
  if (contentType.startsWith('application/json')) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body.chunkBase64 !== 'string' || body.chunkBase64.length === 0) {
      throw invalidRequest('chunkBase64 is required.', [{ path: 'chunkBase64', message: 'missing' }]);
    }
    const bytes = Buffer.from(body.chunkBase64.replace(/^data:[^,]*,/, ''), 'base64');
    await writeStreamAtomically(Readable.from([bytes]), tempPath, maxBytes);
    return {
      sessionId: sessionIdOf(body.sessionId),
      chunkIndex: chunkIndexOf(body.chunkIndex),
      type: typeof body.type === 'string' ? body.type : null,
      tempPath,
    };
  }
  // Raw bytes: application/octet-stream (or anything else), described by headers.
  const sessionId = sessionIdOf(req.get('x-session-id'));
  const chunkIndex = chunkIndexOf(req.get('x-chunk-index'));
  await writeStreamAtomically(req, tempPath, maxBytes);
  return { sessionId, chunkIndex, type: req.get('x-upload-type') ?? null, tempPath };
}
