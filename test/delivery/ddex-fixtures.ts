import { findStore } from '../../src/domains/catalog/stores.ts';
import type { ErnTrack, NewReleaseMessageInput } from '../../src/domains/delivery/ddex.ts';

/** A recognisable fake SHA-256 (64 hex digits). */
export const SHA = (n: number) => n.toString(16).padStart(64, 'a');

export function audio(index: number, seconds = 200.4) {
  return {
    uri: `resources/036000291452_01_${String(index + 1).padStart(3, '0')}.flac`,
    sha256: SHA(index),
    size: 31_337_000 + index,
    durationSeconds: seconds,
    sampleRate: 44_100,
    bitDepth: 16,
    channels: 2,
  };
}

export function input(overrides: Partial<NewReleaseMessageInput> = {}): NewReleaseMessageInput {
  const tracks: ErnTrack[] = [
    {
      position: 0,
      title: 'Harbour Lines',
      titleVersion: null,
      explicit: false,
      payload: {},
      audio: audio(0),
    },
    {
      position: 1,
      title: 'Paper Boats',
      titleVersion: 'Remix',
      explicit: true,
      payload: { genre: 'Dance' },
      audio: { ...audio(1), durationSeconds: 95 },
    },
  ];
  return {
    release: {
      id: '6f1c1e7e-3d3b-4a55-9f0c-0a4b2f6f4d21',
      title: 'Salt & <Smoke> "Live"',
      primaryArtistName: 'Lena Marlow',
      payload: {
        release: {
          title: 'Salt & <Smoke> "Live"',
          primary_artist_name: 'Lena Marlow',
          primary_artists: [{ name: 'Lena Marlow' }, { name: "Theo O'Brandt" }],
          genre: 'Pop',
          sub_genre: 'Indie Pop',
          release_date: '2026-02-06',
          label: 'Harbor Light Records',
          pline_year: '2026',
          pline_owner: 'Harbor Light Records',
          language_and_script_code: 'en-Latn',
        },
      },
    },
    tracks,
    coverArt: {
      uri: 'resources/036000291452.png',
      sha256: SHA(99),
      size: 2_400_000,
      width: 3000,
      height: 3000,
    },
    store: findStore(301)!,
    upc: '036000291452',
    isrcs: ['XXTRB2600001', 'XXTRB2600002'],
    messageId: 'msg-1',
    createdAt: new Date('2026-01-05T09:00:00.000Z'),
    ugcPolicy: null,
    ...overrides,
  };
}
