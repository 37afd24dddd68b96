import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findStore } from '../catalog/stores.ts';
import type { Release } from '../releases/release.entity.ts';
import { ReleaseTrack } from '../releases/release-track.entity.ts';
import { findOwnedFiles } from '../uploads/find-file.ts';
import { buildNewReleaseMessage } from './ddex.ts';
import type { Delivery } from './delivery.entity.ts';
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

/** Track durations from the stored audio files, where the platform knows them (one statement). */
async function durationsOf(em: EntityManager, release: Release, tracks: readonly ReleaseTrack[]) {
  const accountId = release.account.id;
  const urls = [...new Set(tracks.map((track) => track.audioFileUrl))];
  const files = await findOwnedFiles(
    em,
    urls.map((fileUrl) => ({ accountId, fileUrl })),
  );
  const byUrl = new Map(urls.map((url, index) => [url, files[index]]));
  return tracks.map((track) => {
    const file = byUrl.get(track.audioFileUrl);
    const seconds = file?.store === 'audio' ? file.media.durationSeconds : null;
    return typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : null;
  });
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

/**
 * Builds the ERN message of each store the release is being sent to now (a store's first step, in
 * that step's transaction) and keeps it on the store's delivery row.
 */
export async function recordMessages(
  em: EntityManager,
  release: Release,
  sent: readonly Delivery[],
  now: Date,
): Promise<void> {
  if (sent.length === 0) return;
  const content = await loadContent(em, release);
  for (const delivery of sent)
    delivery.ddexMessage = messageFor(content, delivery.storeId, delivery.ugcPolicy ?? null, now);
}
