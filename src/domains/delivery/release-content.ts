import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parseFileUrl } from '../../platform/storage/keys.ts';
import { findStore } from '../catalog/stores.ts';
import type { Release } from '../releases/release.entity.ts';
import { ReleaseTrack } from '../releases/release-track.entity.ts';
import { StoredFile } from '../uploads/stored-file.entity.ts';
import { buildNewReleaseMessage } from './ddex.ts';
import { assignIsrc, assignUpc } from './identifiers.ts';

/** What every store's message is built from: the tracks in order, with their identifiers assigned. */
export interface ReleaseContent {
  release: Release;
  tracks: ReleaseTrack[];
  durations: (number | null)[];
}

export async function tracksOf(em: EntityManager, release: Release): Promise<ReleaseTrack[]> {
  return em.find(ReleaseTrack, { release: release.id }, { orderBy: { position: 'asc' } });
}

/**
 * Gives the release a UPC and every track an ISRC where the submission had none. The codes derive
 * from the release id, so a retried submission assigns the same ones.
 */
export function assignIdentifiers(release: Release, tracks: readonly ReleaseTrack[]): void {
  const year = (release.submittedAt ?? release.createdAt).getUTCFullYear();
  release.upc ??= assignUpc(release.id);
  for (const track of tracks) track.isrc ??= assignIsrc(release.id, track.position, year);
}

/** Track durations from the stored audio files, where the platform knows them. */
async function durationsOf(em: EntityManager, release: Release, tracks: readonly ReleaseTrack[]) {
  return Promise.all(
    tracks.map(async (track) => {
      const parsed = parseFileUrl(track.audioFileUrl);
      if (!parsed || parsed.ownerId !== release.account.id || parsed.store !== 'audio') return null;
      const file = await em.findOne(StoredFile, {
        account: parsed.ownerId,
        store: 'audio',
        name: parsed.name,
      });
      const seconds = file?.media.durationSeconds;
      return typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : null;
    }),
  );
}

export async function loadContent(em: EntityManager, release: Release): Promise<ReleaseContent> {
  const tracks = await tracksOf(em, release);
  assignIdentifiers(release, tracks);
  return { release, tracks, durations: await durationsOf(em, release, tracks) };
}

/** The ERN NewReleaseMessage of the release for one store. */
export function messageFor(content: ReleaseContent, storeId: number, ugcPolicy: string | null, now: Date) {
  const store = findStore(storeId);
  if (!store) throw new Error(`unknown store ${storeId}`);
  const { release, tracks } = content;
  return buildNewReleaseMessage({
    release,
    tracks,
    store,
    upc: release.upc ?? assignUpc(release.id),
    isrcs: tracks.map((track) => track.isrc ?? ''),
    durations: content.durations,
    messageId: randomUUID(),
    createdAt: now,
    ugcPolicy,
  });
}
