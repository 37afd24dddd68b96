import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { runSql } from '../../platform/db/direct-sql.ts';
import { parseFileUrl } from '../../platform/storage/keys.ts';
import type { StoredFile } from '../uploads/index.ts';
import { AudioAnalysis } from './audio-analysis.entity.ts';

type Kind = AudioAnalysis['kind'];

/**
 * The cached results of the caller's file at `fileUrl`, every kind in one statement (a kind missing here
 * may still be found through a file with the same bytes: `cachedAnalysis`); null when the URL names no
 * file of the caller's store. Found through the file's owner, store and name, not its id, so a caller
 * that also reads the file's row sends both statements at once. The rules and the pricing of a
 * submission read a file's AI verdict and registry match together.
 */
export async function ownAnalysesOf(
  em: EntityManager,
  accountId: string,
  fileUrl: string,
): Promise<Map<Kind, Record<string, unknown>> | null> {
  const file = parseFileUrl(fileUrl);
  if (!file || file.ownerId !== accountId) return null;
  const rows = await runSql<{ kind: Kind; result: Record<string, unknown> }>(
    em,
    `select a.kind, a.result from audio_analyses a join stored_files f on f.id = a.file_id
      where f.account_id = $1 and f.store = $2 and f.name = $3`,
    [accountId, file.store, file.name],
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
