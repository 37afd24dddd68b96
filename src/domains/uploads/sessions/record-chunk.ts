import { stat } from 'node:fs/promises';
import { invalidRequest } from '../../../platform/errors.ts';
import type { UploadDeps } from '../deps.ts';
import { MAX_CHUNK_BYTES, MAX_CHUNKS } from '../limits.ts';
import { UploadChunk } from '../upload-chunk.entity.ts';
import { findSession } from './find-session.ts';

export function checkChunkIndex(index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_CHUNKS) {
    throw invalidRequest(`chunkIndex must be an integer from 0 to ${MAX_CHUNKS - 1}.`, [
      { path: 'chunkIndex', message: 'out of range' },
    ]);
  }
}

/**
 * Records a chunk whose bytes the facade has written to the session's scratch area. Idempotent: the
 * same index again replaces the bytes and the record, so retries and duplicates are harmless.
 */
export async function recordChunk(
  deps: Pick<UploadDeps, 'em' | 'scratch' | 'now'>,
  input: { accountId: string; sessionId: string; index: number },
) {
  checkChunkIndex(input.index);
  const session = await findSession(deps.em, input.accountId, input.sessionId, {
    open: true,
    now: deps.now(),
  });
  const size = (await stat(deps.scratch.chunkPath(session.id, input.index)).catch(() => null))?.size;
  if (size === undefined)
    throw invalidRequest('No bytes arrived for this chunk.', [{ path: 'chunk', message: 'empty' }]);
  if (size === 0 || size > MAX_CHUNK_BYTES) {
    throw invalidRequest(`A chunk holds 1 to ${MAX_CHUNK_BYTES} bytes.`, [
      { path: 'chunk', message: `${size} bytes` },
    ]);
  }
  await deps.em.upsert(UploadChunk, { session, index: input.index, size, receivedAt: deps.now() });
  return { session, index: input.index, size };
}
