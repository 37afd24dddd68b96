import type { EntityManager } from '@mikro-orm/postgresql';
import { Delivery } from '../../src/domains/delivery/delivery.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ReleaseTrack } from '../../src/domains/releases/release-track.entity.ts';

/**
 * A submitted release with `trackCount` tracks, live on `storeIds` since `liveAt` (rows written
 * directly). An `id` of the test's choosing fixes the sandbox's figures (they are seeded by it).
 */
export async function liveRelease(
  em: EntityManager,
  accountId: string,
  options: { storeIds: number[]; liveAt: Date; trackCount?: number; title?: string; id?: string },
): Promise<{ releaseId: string; trackIds: string[] }> {
  const release = em.create(Release, {
    ...(options.id ? { id: options.id } : {}),
    account: accountId,
    status: 'submitted',
    payload: {
      release: {
        title: options.title ?? 'Harbour Lines',
        cover_art_file_url: '/api/files/cover-art/x/c.png',
      },
      tracks: [],
    },
    title: options.title ?? 'Harbour Lines',
    primaryArtistName: 'Ada Artist',
    aggregateStatus: 'distributed',
    submittedAt: options.liveAt,
  });
  const tracks = Array.from({ length: options.trackCount ?? 2 }, (_, i) =>
    em.create(ReleaseTrack, {
      release,
      position: i + 1,
      title: `Track ${i + 1}`,
      audioFileUrl: '/api/files/audio/x/t.wav',
      explicit: false,
      ai: false,
      credits: 1,
      payload: {},
    }),
  );
  for (const storeId of options.storeIds) {
    em.create(Delivery, {
      release,
      storeId,
      status: 'live',
      statusText: 'Live',
      liveAt: options.liveAt,
    });
  }
  await em.flush();
  return { releaseId: release.id, trackIds: tracks.map((t) => t.id) };
}
