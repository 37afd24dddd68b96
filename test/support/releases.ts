import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { releaseSchema } from '../../src/domains/releases/release-schema.ts';
import type { AccountFixture } from './factories.ts';
import { request } from './http.ts';
import { imageBytes, makeWav } from './media.ts';

let wav: Promise<Buffer> | undefined;

/** The fixture WAV, made once per process (concurrent callers share the one being made). */
function wavBytes(): Promise<Buffer> {
  wav ??= (async () => {
    const file = path.join(tmpdir(), `release-fixture-${process.pid}.wav`);
    await makeWav(file, 1);
    const bytes = await readFile(file);
    await rm(file, { force: true });
    return bytes;
  })();
  return wav;
}

export interface Assets {
  coverUrl: string;
  audioUrl: string;
}

/** Uploads a cover and one audio file for the account, through the real upload path. */
export async function uploadAssets(baseUrl: string, account: AccountFixture): Promise<Assets> {
  const cover = await request(baseUrl, 'POST', '/v1/files', {
    token: account.token,
    body: {
      type: 'coverArt',
      file_name: 'cover.png',
      data_base64: (await imageBytes(3000, 3000)).toString('base64'),
    },
  });
  const audio = await request(baseUrl, 'POST', '/v1/files', {
    token: account.token,
    body: { type: 'audio', file_name: 'track.wav', data_base64: (await wavBytes()).toString('base64') },
  });
  if (cover.status !== 201 || audio.status !== 201)
    throw new Error(`asset upload failed: ${JSON.stringify([cover.body, audio.body])}`);
  return { coverUrl: cover.body.fileUrl, audioUrl: audio.body.fileUrl };
}

const TITLES = [
  'Morning Light',
  'Harbour Lines',
  'Paper Boats',
  'Quiet Engines',
  'Northern Glass',
  'Silver Thread',
];

/**
 * A valid SubmitReleaseRequest (the release schema's own example) pointed at the account's files,
 * with `trackCount` tracks of distinct titles and no ISRCs (so many submissions never collide).
 */
export function validSubmission(
  assets: Assets,
  trackCount = 2,
): { release: Record<string, unknown>; tracks: Record<string, unknown>[] } {
  const example = releaseSchema().example as {
    release: Record<string, unknown>;
    tracks: Record<string, unknown>[];
  };
  const template = example.tracks[0]!;
  const tracks = Array.from({ length: trackCount }, (_, i) => {
    const { isrc: _isrc, ...track } = template;
    return {
      ...track,
      title: `${TITLES[i % TITLES.length]}${i >= TITLES.length ? ` ${Math.floor(i / TITLES.length) + 1}` : ''}`,
      audio_file_url: assets.audioUrl,
    };
  });
  const release = {
    ...example.release,
    cover_art_file_url: assets.coverUrl,
    title: trackCount === 1 ? tracks[0]!.title : example.release.title,
  };
  return { release, tracks };
}
