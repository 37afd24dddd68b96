import type { EntityManager } from '@mikro-orm/postgresql';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { fingerprintAudio, indexRecording, RegistryRecording } from '../audio/index.ts';
import { Release } from '../releases/index.ts';
import { findOwnedFile } from '../uploads/index.ts';
import { Delivery } from './delivery.entity.ts';
import { tracksOf } from './release-content.ts';
import { storeNameOf } from './status-text.ts';

/**
 * Adds every track of a release that went live to the fingerprint registry, with its final ISRC and
 * the store links it has, under its owner (an ACR check by the owner reports it as their own).
 * Idempotent: a track already indexed is replaced. Returns how many tracks were indexed.
 */
export async function indexLiveRelease(
  em: EntityManager,
  storage: ObjectStorage,
  releaseId: string,
): Promise<number> {
  const release = await em.findOne(Release, { id: releaseId });
  if (release?.status !== 'submitted' || release.sandboxSample) return 0;
  const tracks = await tracksOf(em, release);
  const deliveries = await em.find(Delivery, { release, status: 'live', urlInStore: { $ne: null } });
  const dspLinks = deliveries.map((d) => ({ name: storeNameOf(d.storeId), url: d.urlInStore ?? '' }));
  const label = typeof release.payload.release.label === 'string' ? release.payload.release.label : null;
  let indexed = 0;
  for (const track of tracks) {
    const file = await findOwnedFile(em, release.account.id, track.audioFileUrl).catch(() => null);
    if (!file) continue;
    const { fingerprint, seconds } = await fingerprintAudio(await storage.get(file.storageKey));
    if (fingerprint.length === 0) continue;
    await indexRecording(em, {
      source: 'release',
      accountId: release.account.id,
      releaseId: release.id,
      trackPosition: track.position,
      externalKey: null,
      title: track.title,
      artist: release.primaryArtistName ?? null,
      isrc: track.isrc ?? null,
      albumName: release.title ?? null,
      label,
      dspLinks,
      durationSeconds: seconds,
      fingerprint,
    });
    indexed++;
  }
  return indexed;
}

/** Releases that went live (approved) and have no track in the registry yet: a sweep's work list. */
export async function unindexedLiveReleases(em: EntityManager, limit = 50): Promise<string[]> {
  const rows: { id: string }[] = await em.execute(
    `select r.id from releases r
      where r.status = 'submitted' and r.aggregate_status = 'distributed' and not r.sandbox_sample
        and not exists (select 1 from ${em.getMetadata(RegistryRecording).tableName} g where g.release_id = r.id)
      order by r.submitted_at limit ?`,
    [limit],
  );
  return rows.map((row) => row.id);
}
