import { createHash } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ReleaseTrack } from '../../src/domains/releases/release-track.entity.ts';
import { type FileStore, StoredFile } from '../../src/domains/uploads/stored-file.entity.ts';
import { accountWithToken } from '../support/factories.ts';
import { useTestOrm } from '../support/orm.ts';

/** The domain's tests run on a migrated database of their own. */
export function useDeliveryOrm(): () => MikroORM {
  return useTestOrm('delivery');
}

export const DSPONE_URL = 'https://open.dspone.example/artist/4Z8W4fKeB5YxbusRsdQVPb';
export const DSPTWO_URL = 'https://music.dsptwo.example/us/artist/theo-brandt/1234567';

export interface ReleaseFixture {
  releaseId: string;
  accountId: string;
}

/** A submitted release written directly: queued aggregate, tracks without ISRCs unless given. */
export async function submittedRelease(
  orm: MikroORM,
  options: {
    storeIds?: number[] | null;
    trackCount?: number;
    isrcs?: (string | null)[];
    upc?: string | null;
    title?: string;
    status?: 'draft' | 'submitted';
  } = {},
): Promise<ReleaseFixture> {
  const em = orm.em.fork();
  const { accountId } = await accountWithToken(em);
  const title = options.title ?? 'Lights over the Harbor';
  const trackCount = options.trackCount ?? 2;
  const tracks = Array.from({ length: trackCount }, (_, i) => ({
    title: `Song ${i + 1}`,
    audio_file_url: `/api/files/audio/${accountId}/track-${i + 1}.flac`,
    explicit_flag: i === 1,
    track_type: 'original',
    language: 'en',
    pline_owner: 'Harbor Light Records',
    pline_year: '2026',
  }));
  const release = em.create(Release, {
    account: em.getReference(Account, accountId),
    status: options.status ?? 'submitted',
    revision: 1,
    draftStatus: 'submitted',
    payload: {
      release: {
        title,
        primary_artist_name: 'Lena Marlow',
        primary_artists: [
          { name: 'Lena Marlow', dspone_artist_url: DSPONE_URL },
          { name: 'Theo Brandt', dsptwo_artist_url: DSPTWO_URL },
        ],
        genre: 'Pop',
        sub_genre: 'Indie Pop',
        release_date: '2026-02-06',
        label: 'Harbor Light Records',
        language_and_script_code: 'en-Latn',
        pline_year: '2026',
        pline_owner: 'Harbor Light Records',
        cline_year: '2026',
        cline_owner: 'Harbor Light Records',
        cover_art_file_url: `/api/files/cover-art/${accountId}/cover.png`,
      },
      tracks,
    },
    title,
    primaryArtistName: 'Lena Marlow',
    distributionStoreIds: options.storeIds === undefined ? [301, 302, 306] : options.storeIds,
    aggregateStatus: options.status === 'draft' ? null : 'queued',
    upc: options.upc ?? null,
    submittedAt: new Date('2026-01-05T08:00:00Z'),
  });
  tracks.forEach((track, position) => {
    em.create(ReleaseTrack, {
      release,
      position,
      title: track.title,
      isrc: options.isrcs?.[position] ?? null,
      audioFileUrl: track.audio_file_url,
      explicit: track.explicit_flag,
      ai: false,
      credits: 1,
      payload: track,
    });
  });
  storedFile(em, accountId, 'cover-art', 'cover.png', { width: 3000, height: 3000, format: 'png' });
  tracks.forEach((_, i) => {
    const media = { durationSeconds: 180 + i, sampleRate: 44100, bitDepth: 16, channels: 2, codec: 'FLAC' };
    storedFile(em, accountId, 'audio', `track-${i + 1}.flac`, media);
  });
  await em.flush();
  return { releaseId: release.id, accountId };
}

/** The stored file a release points at (its bytes are not needed: the messages name its hash and size). */
function storedFile(
  em: EntityManager,
  accountId: string,
  store: FileStore,
  name: string,
  media: Record<string, unknown>,
) {
  const sha256 = createHash('sha256').update(`${accountId}/${store}/${name}`).digest('hex');
  em.create(StoredFile, {
    account: em.getReference(Account, accountId),
    store,
    name,
    storageKey: `${accountId}/${store}/${name}`,
    size: 1000 + name.length,
    contentType: store === 'audio' ? 'audio/flac' : 'image/png',
    sha256,
    sourceSha256: sha256,
    sourceSize: 1000 + name.length,
    sourceContentType: null,
    sourceName: name,
    origin: 'base64',
    originUrl: null,
    media,
    warnings: [],
  });
}
