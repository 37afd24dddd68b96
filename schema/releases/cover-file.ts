import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { Release } from '../../src/domains/releases/index.ts';
import { findOwnedFiles, type StoredFile } from '../../src/domains/uploads/index.ts';
import { batchLoads } from '../batch-loads.ts';
import type { Context } from '../context.ts';

interface CoverKey {
  accountId: string;
  fileUrl: string;
}

/**
 * The cover files of the releases of one request, in one batch (per account and fileUrl): `coverArt`
 * and `coverThumbnail` share it, so a page asking for both reads the files once.
 */
const coverFiles = createContextCache(
  (context: Context) =>
    new DataLoader<CoverKey, StoredFile | null, string>(
      (keys) => batchLoads(context, keys, (batch) => findOwnedFiles(context.em, batch)),
      { cacheKeyFn: (key) => `${key.accountId} ${key.fileUrl}` },
    ),
);

/** The cover art file a release names, when it is one of the release's account's files; else null. */
export async function coverFileOf(release: Release, context: Context): Promise<StoredFile | null> {
  const fileUrl = release.payload.release.cover_art_file_url;
  if (typeof fileUrl !== 'string') return null;
  return coverFiles(context).load({ accountId: release.account.id, fileUrl });
}
