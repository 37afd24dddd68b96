import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { AudioDeps } from '../audio/index.ts';
import { aiDetectionOf, ownAnalysesOf } from '../audio/index.ts';
import { findOwnedFileRows, StoredFile, type StoredFileRow } from '../uploads/index.ts';
import { Release } from './release.entity.ts';
import { ReleaseTrack } from './release-track.entity.ts';
import type { RuleContext } from './rules/engine/types.ts';

function oncePerUrl<T>(run: (fileUrl: string) => Promise<T>): (fileUrl: string) => Promise<T> {
  const started = new Map<string, Promise<T>>();
  return (fileUrl) => {
    let found = started.get(fileUrl);
    if (!found) {
      found = run(fileUrl);
      started.set(fileUrl, found);
    }
    return found;
  };
}

/**
 * The caller's files by `fileUrl` (their rows), null where not the caller's: a DataLoader, so the
 * lookups asked together (the rules ask for the cover and every track's audio at once) share one
 * statement and each file is looked up once.
 */
function ownedFiles(
  em: EntityManager,
  accountId: string,
): (fileUrl: string) => Promise<StoredFileRow | null> {
  const loader = new DataLoader<string, StoredFileRow | null>((fileUrls) =>
    findOwnedFileRows(
      em,
      fileUrls.map((fileUrl) => ({ accountId, fileUrl })),
    ).catch(() => fileUrls.map(() => null)),
  );
  return (fileUrl) => loader.load(fileUrl);
}

/**
 * Binds the rules engine's lookups to one account (files are looked up through their owner). With
 * `audio`, a file's AI verdict that is not cached yet is detected (quote and submit price with it).
 */
export function ruleContextFor(
  em: EntityManager,
  accountId: string,
  options: { releaseId?: string | undefined; now?: Date; audio?: Omit<AudioDeps, 'em'> | undefined } = {},
): RuleContext {
  const file = ownedFiles(em, accountId);
  // A file's cached AI verdict and registry match, read together: one statement per distinct file,
  // sent beside the file's own lookup rather than after it.
  const analyses = oncePerUrl((fileUrl) => ownAnalysesOf(em, accountId, fileUrl));
  // The rules and the pricing both ask for every track's verdict: one lookup per distinct file.
  const aiDetection = oncePerUrl(async (fileUrl): Promise<{ containsAi: boolean } | null> => {
    const audio = options.audio;
    if (audio) {
      const [stored, found] = await Promise.all([file(fileUrl), analyses(fileUrl)]);
      if (stored?.store !== 'audio') return null;
      const own = found?.get('ai_detection') ?? null;
      // A cached verdict is read as the detection reads it; only detecting needs the file's entity.
      const result = own
        ? { status: own.status, containsAi: own.containsAi === true }
        : await aiDetectionOf({ ...audio, em }, em.map(StoredFile, stored), null);
      return { containsAi: result.status === 'ok' && result.containsAi };
    }
    const found = (await analyses(fileUrl))?.get('ai_detection');
    return found ? { containsAi: found.containsAi === true } : null;
  });
  const otherRelease = options.releaseId ? { $ne: options.releaseId } : { $ne: null };
  return {
    now: options.now ?? new Date(),
    ownsFile: async (fileUrl, store) => (await file(fileUrl))?.store === store,
    fileFacts: async (fileUrl) => {
      const stored = await file(fileUrl);
      if (!stored) return null;
      const source = stored.media.source as { lossless?: unknown } | undefined;
      return {
        warnings: stored.warnings.map((w) => w.code),
        lossless: typeof source?.lossless === 'boolean' ? source.lossless : null,
      };
    },
    isrcInUse: async (isrc) =>
      (await em.count(ReleaseTrack, { isrc, release: { id: otherRelease, status: 'submitted' } })) > 0,
    upcInUse: async (upc) => (await em.count(Release, { upc, id: otherRelease, status: 'submitted' })) > 0,
    aiDetection,
    registryMatch: async (fileUrl) => {
      const found = (await analyses(fileUrl))?.get('registry_match');
      if (!found) return null;
      // The caller's own live release is not a rights conflict.
      const own = (found.bestMatch as { ownRelease?: unknown } | null)?.ownRelease === true;
      return { matched: found.matched === true && !own };
    },
  };
}
