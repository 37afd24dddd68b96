import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { StoredFile } from '../uploads/index.ts';
import { AudioAnalysis } from './audio-analysis.entity.ts';

type Kind = AudioAnalysis['kind'];

/**
 * A cached result for this file's content: the file's own row, else a row of any file with the same
 * bytes (copied to this file, so the next read is one lookup). Results depend only on the bytes.
 */
export async function cachedAnalysis(
  em: EntityManager,
  file: StoredFile,
  kind: Kind,
): Promise<Record<string, unknown> | null> {
  const own = await em.findOne(AudioAnalysis, { file, kind });
  if (own) return own.result;
  const same = await em.findOne(
    AudioAnalysis,
    { kind, file: { sha256: file.sha256, size: file.size } },
    { orderBy: { createdAt: 'asc' } },
  );
  if (!same) return null;
  await saveAnalysis(em, file, kind, same.result);
  return same.result;
}

/** Stores a result once per file and kind; a concurrent first write wins. */
export async function saveAnalysis(
  em: EntityManager,
  file: StoredFile,
  kind: Kind,
  result: Record<string, unknown>,
  createdAt = new Date(),
): Promise<void> {
  try {
    await em.insert(
      AudioAnalysis,
      em.create(AudioAnalysis, { file, kind, result, createdAt }, { persist: false }),
    );
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
  }
}
