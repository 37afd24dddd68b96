import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { invalidRequest } from '../../../platform/errors.ts';
import type { UploadDeps } from '../deps.ts';
import { ingestFile } from '../ingest.ts';
import type { StoredFile } from '../stored-file.entity.ts';
import { UploadChunk } from '../upload-chunk.entity.ts';
import type { UploadType } from '../upload-session.entity.ts';
import { findSession } from './find-session.ts';

/**
 * Assembles the chunks in index order (streamed, memory flat), checks the total against the declared
 * file_size, and ingests the result. Missing chunks or a size mismatch are named precisely, and the
 * session stays open so the client can send what is missing.
 */
export async function completeSession(
  deps: UploadDeps,
  input: { accountId: string; sessionId: string; fileName?: string | null; type?: UploadType | null },
): Promise<StoredFile> {
  const session = await findSession(deps.em, input.accountId, input.sessionId, {
    open: true,
    now: deps.now(),
  });
  if (input.type && input.type !== session.type) {
    throw invalidRequest(`type ${input.type} does not match the session's type ${session.type}.`, [
      { path: 'type', message: 'mismatch' },
    ]);
  }
  const chunks = await deps.em.find(UploadChunk, { session }, { orderBy: { index: 'asc' } });
  const missing = firstMissing(chunks.map((c) => c.index));
  const total = chunks.reduce((sum, c) => sum + c.size, 0);
  if (total < session.fileSize && missing !== null) {
    throw invalidRequest(
      `Chunk ${missing} has not arrived (${total} of ${session.fileSize} bytes received).`,
      [{ path: 'chunkIndex', message: `missing ${missing}` }],
      'upload_incomplete',
    );
  }
  if (total !== session.fileSize || missing !== null) {
    throw invalidRequest(
      `The chunks hold ${total} bytes but file_size is ${session.fileSize}.`,
      [{ path: 'file_size', message: 'size mismatch' }],
      'upload_size_mismatch',
    );
  }

  const assembled = await deps.scratch.newPath('assembled');
  try {
    const chunkPaths = chunks.map((chunk) => deps.scratch.chunkPath(session.id, chunk.index));
    await pipeline(async function* concatenate() {
      for (const chunkPath of chunkPaths) yield* createReadStream(chunkPath, { highWaterMark: 1 << 20 });
    }, createWriteStream(assembled));
    const file = await ingestFile(deps, {
      accountId: input.accountId,
      type: session.type,
      fileName: input.fileName || session.fileName,
      sourcePath: assembled,
      origin: 'chunked',
      fieldPath: 'sessionId',
    });
    session.status = 'completed';
    session.completedAt = deps.now();
    session.file = file;
    await deps.em.flush();
    await rm(deps.scratch.sessionDir(session.id), { recursive: true, force: true });
    return file;
  } finally {
    await rm(assembled, { force: true });
  }
}

/** The lowest index missing from 0..max, or null when the indexes are contiguous from 0. */
function firstMissing(sortedIndexes: number[]): number | null {
  for (let i = 0; i < sortedIndexes.length; i++) if (sortedIndexes[i] !== i) return i;
  return null;
}
