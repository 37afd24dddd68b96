import type { EntityManager } from '@mikro-orm/postgresql';
import { UploadChunk } from '../upload-chunk.entity.ts';
import type { UploadSession } from '../upload-session.entity.ts';

export interface SessionProgress {
  session: UploadSession;
  receivedChunks: { index: number; size: number }[];
  receivedBytes: number;
}

/**
 * Which chunks the session holds, so a client can resume after a broken connection; a completed
 * session's file is loaded whole (a session read afresh holds only a reference to it).
 */
export async function sessionProgress(em: EntityManager, session: UploadSession): Promise<SessionProgress> {
  if (session.file) await em.populate(session, ['file']);
  const chunks = await em.find(UploadChunk, { session }, { orderBy: { index: 'asc' } });
  const receivedChunks = chunks.map((c) => ({ index: c.index, size: c.size }));
  return { session, receivedChunks, receivedBytes: receivedChunks.reduce((sum, c) => sum + c.size, 0) };
}
