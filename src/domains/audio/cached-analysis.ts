import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { runSql } from '../../platform/db/direct-sql.ts';
import type { StoredFile } from '../uploads/index.ts';
import { AudioAnalysis } from './audio-analysis.entity.ts';

type Kind = AudioAnalysis['kind'];

/**
 * The file's own cached results, every kind in one statement (a kind missing here may still be found
 * through a file with the same bytes: `cachedAnalysis`). The rules and the pricing of a submission read
 * a file's AI verdict and registry match together.
 */
export async function ownAnalyses(
  em: EntityManager,
  file: Pick<StoredFile, 'id'>,
): Promise<Map<Kind, Record<string, unknown>>> {
  const rows = await runSql<{ kind: Kind; result: Record<string, unknown> }>(
    em,
    'select kind, result from audio_analyses where file_id = $1',
    [file.id],
  );
  return new Map(rows.map((row) => [row.kind, row.result]));
}

/**
 * A cached result for this file's content: the file's own row, else a row of any file with the same
 * bytes (copied to this file, so the next read is one lookup). Results depend only on the bytes.
 */
export async function cachedAnalysis(
  em: EntityManager,
  file: StoredFile,
  kind: Kind,
  /** The file's own result when the caller has read it already (null: it has none). */
  known?: Record<string, unknown> | null,
): Promise<Record<string, unknown> | null> {
  const own = known === undefined ? (await em.findOne(AudioAnalysis, { file, kind }))?.result : known;
  if (own) return own;
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
