import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestApp } from '../../../test/support/app.ts';
import { imageBytes, makeWav } from '../../../test/support/media.ts';
import { validSubmission } from '../../../test/support/releases.ts';
import type { paths } from '../src/generated/rest.ts';
import { createTributaryClient, type TributaryClient, type TributaryClientOptions } from '../src/index.ts';

export type SubmitBody = paths['/releases']['post']['requestBody']['content']['application/json'];

/** A client of the test app, signed in with `token`. */
export function clientOf(
  app: TestApp,
  token: string | undefined,
  options: Partial<TributaryClientOptions> = {},
): TributaryClient {
  return createTributaryClient({ baseUrl: app.url, ...(token ? { token } : {}), ...options });
}

/** A one-second WAV (a tone). */
export async function wavBytes(seconds = 1): Promise<Buffer> {
  const file = path.join(tmpdir(), `client-test-${process.pid}-${Math.random()}.wav`);
  await makeWav(file, seconds);
  try {
    return await readFile(file);
  } finally {
    await rm(file, { force: true });
  }
}

/** A cover and a track uploaded through the client's REST surface (base64, POST /v1/files). */
export async function uploadAssets(client: TributaryClient): Promise<{ coverUrl: string; audioUrl: string }> {
  const cover = await client.rest.POST('/files', {
    body: {
      type: 'coverArt',
      file_name: 'cover.png',
      data_base64: (await imageBytes(3000, 3000)).toString('base64'),
    },
  });
  const audio = await client.rest.POST('/files', {
    body: { type: 'audio', file_name: 'track.wav', data_base64: (await wavBytes()).toString('base64') },
  });
  return { coverUrl: cover.data!.fileUrl, audioUrl: audio.data!.fileUrl };
}

/** A valid submission body (the release schema's example) on the uploaded files. */
export function submission(assets: { coverUrl: string; audioUrl: string }, trackCount = 1): SubmitBody {
  return validSubmission(assets, trackCount) as SubmitBody;
}

/** The same release as GraphQL's typed input (camelCase names, enums), released a month from now. */
export function graphqlSubmission(assets: { coverUrl: string; audioUrl: string }, title = 'Harbour Lines') {
  const year = String(new Date().getUTCFullYear());
  return {
    release: {
      title,
      primaryArtistName: 'Lena Marlow',
      primaryArtists: [{ name: 'Lena Marlow' }],
      genre: 'Pop',
      subGenre: 'Indie Pop',
      releaseDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      label: 'Harbor Light Records',
      audioLanguage: 'en',
      metadataLanguage: 'en',
      languageAndScriptCode: 'en-Latn',
      distributionStoreIds: [301, 302],
      plineYear: year,
      plineOwner: 'Harbor Light Records',
      clineYear: year,
      clineOwner: 'Harbor Light Records',
      coverArtFileUrl: assets.coverUrl,
    },
    tracks: [
      {
        title,
        audioFileUrl: assets.audioUrl,
        explicitFlag: false,
        trackType: 'ORIGINAL' as const,
        language: 'en',
        writers: [{ name: 'Lena Marlow', sharePercent: 100 }],
        contributors: [{ name: 'Samuel Okafor', role: 'Producer' }],
      },
    ],
  };
}

/**
 * Arranges the shared rate-limit store (the `rate_limits` table) so that `key` is spent until
 * `seconds` from now: the next request counted under it answers 429 with that Retry-After.
 */
export async function spendRateLimit(app: TestApp, key: string, seconds: number): Promise<void> {
  await app
    .em()
    .getConnection()
    .execute(
      `insert into rate_limits (key, points, expire) values (?, 1000000, ?)
       on conflict (key) do update set points = excluded.points, expire = excluded.expire`,
      [key, Date.now() + seconds * 1000],
    );
}

/** A fetch that records each request it sends (a copy, body readable) and sends it unchanged. */
export function recordingFetch(): { fetch: typeof fetch; sent: Request[] } {
  const sent: Request[] = [];
  return {
    sent,
    fetch: (input, init) => {
      const request = new Request(input, init);
      sent.push(request.clone());
      return fetch(request);
    },
  };
}
