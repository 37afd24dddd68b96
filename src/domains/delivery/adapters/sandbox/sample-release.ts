import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_STORE_IDS } from '../../../catalog/index.ts';
import { assignIsrc, assignUpc, Release, ReleaseTrack, releaseSchema } from '../../../releases/index.ts';
import { Delivery } from '../../delivery.entity.ts';
import { ReleaseJob } from '../../release-job.entity.ts';
import { statusTextOf } from '../../status-text.ts';
import { sandboxStoreUrl } from './sandbox-adapter.ts';

/** The sample's title: it names itself in every payload, so nobody takes its events for a real release's. */
export const SAMPLE_TITLE = 'Sandbox Sample';

/** Live at the first three default stores: enough for a partial takedown to leave stores behind. */
const SAMPLE_STORE_IDS = DEFAULT_STORE_IDS.slice(0, 3);

/**
 * The account's sandbox sample, made the first time it is asked for, in the caller's transaction (the
 * account row is locked first, so two first calls make one sample). It is the release schema's example
 * under the sample's title, already distributed: submitted, approved (UPC and ISRCs assigned), live at
 * three stores, its job completed, nothing scheduled. It is made here rather than submitted: nothing
 * is charged, no submission is recorded, no audio exists and no store is ever sent anything
 * (`sandboxSample` keeps it out of submission counts, analytics, the registry, distribute and takedown).
 */
export async function sandboxSampleOf(em: EntityManager, accountId: string, now: Date): Promise<Release> {
  await em.execute('select id from accounts where id = ? for update', [accountId]);
  const existing = await em.findOne(Release, { account: accountId, sandboxSample: true }, { refresh: true });
  if (existing) return existing;
  const id = randomUUID();
  const example = releaseSchema(now).example;
  const files = (kind: string, name: string) => `/api/files/${kind}/${accountId}/${name}`;
  const tracks = example.tracks.map((track, position) => ({
    ...track,
    audio_file_url: files('audio', `sandbox-sample-${position + 1}.flac`),
  }));
  const release = em.create(Release, {
    id,
    account: accountId,
    status: 'submitted',
    draftStatus: 'submitted',
    revision: 1,
    payload: {
      release: {
        ...example.release,
        title: SAMPLE_TITLE,
        distribution_store_ids: [...SAMPLE_STORE_IDS],
        cover_art_file_url: files('cover-art', 'sandbox-sample.png'),
      },
      tracks,
    },
    title: SAMPLE_TITLE,
    primaryArtistName: example.release.primary_artist_name,
    distributionStoreIds: [...SAMPLE_STORE_IDS],
    creditsSpent: 0,
    provenance: 'sandbox',
    aggregateStatus: 'distributed',
    upc: assignUpc(id),
    submittedAt: now,
    sandboxSample: true,
  });
  for (const [position, track] of tracks.entries()) {
    em.create(ReleaseTrack, {
      release,
      position,
      title: track.title,
      titleVersion: null,
      isrc: assignIsrc(id, position, now.getUTCFullYear()),
      audioFileUrl: track.audio_file_url,
      explicit: track.explicit_flag,
      trackType: track.track_type,
      ai: false,
      credits: 0,
      payload: track,
    });
  }
  for (const storeId of SAMPLE_STORE_IDS) {
    em.create(Delivery, {
      release,
      storeId,
      status: 'live',
      statusText: statusTextOf('live'),
      urlInStore: sandboxStoreUrl(storeId, id),
      nextStepAt: null,
      liveAt: now,
    });
  }
  em.create(ReleaseJob, {
    release,
    state: 'completed',
    steps: [
      {
        name: 'sandbox.sample',
        status: 'completed',
        at: now.toISOString(),
        detail: 'Made by the sandbox for test events: live at its stores, nothing was delivered.',
      },
    ],
    errors: [],
  });
  await em.flush();
  return release;
}
