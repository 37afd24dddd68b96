import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioAnalysis } from '../../src/domains/audio/audio-analysis.entity.ts';
import { RegistryRecording } from '../../src/domains/audio/registry/registry-recording.entity.ts';
import { ReleaseTrack } from '../../src/domains/releases/release-track.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { musicLike, reencode, writeWav } from '../support/synthetic-audio.ts';
import { waitFor } from '../support/wait.ts';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'registry-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A 10-second excerpt with added noise, 6 dB quieter, as a 64 kbps MP3. */
async function distortedExcerpt(source: string, name: string, startSeconds: number): Promise<string> {
  const out = path.join(dir, name);
  await reencode(source, out, { startSeconds, seconds: 10, gainDb: -6, noise: 0.03, bitrate: '64k' });
  return out;
}

describe('registry match (ACR check)', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: '0' }, { background: true });

  async function upload(token: string, file: string): Promise<string> {
    const response = await request(app().url, 'POST', '/v1/files', {
      token,
      body: {
        type: 'audio',
        file_name: path.basename(file),
        data_base64: (await readFile(file)).toString('base64'),
      },
    });
    expect(response.status).toBe(201);
    return response.body.fileUrl;
  }
  const acr = (token: string, fileUrl: string) =>
    request(app().url, 'POST', '/v1/audio/acr-check', { token, body: { file_url: fileUrl } });

  it('indexes a release when it goes live; an excerpt with noise, gain and 64 kbps MP3 matches it, a stranger does not, the owner sees their own', async () => {
    const artist = await accountWithToken(app().em(), { credits: 10 });
    const someone = await accountWithToken(app().em());
    const original = path.join(dir, 'original.wav');
    await writeWav(original, musicLike(41, 25));
    const assets = await uploadAssets(app().url, artist);
    const body = validSubmission(assets, 1);
    body.tracks[0]!.audio_file_url = await upload(artist.token, original);
    const submitted = await request(app().url, 'POST', '/v1/releases', { token: artist.token, body });
    expect(submitted.status).toBe(201);
    const releaseId = submitted.body.releaseId as string;

    const indexed = await waitFor(
      () => app().em().count(RegistryRecording, { releaseId }),
      (count) => count === 1,
      60_000,
    );
    expect(indexed).toBe(1);
    const track = await app().em().findOneOrFail(ReleaseTrack, { release: releaseId });
    expect(track.isrc).toMatch(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/);

    const excerpt = await upload(someone.token, await distortedExcerpt(original, 'excerpt.mp3', 9));
    const found = await acr(someone.token, excerpt);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({
      status: 'ok',
      matched: true,
      provider: 'tributary',
      model: 'chromaprint-registry-v1',
      cached: false,
      bestMatch: { title: track.title, isrc: track.isrc, ownRelease: false, releaseId: null },
    });
    expect(found.body.bestMatch.queryMatchPercentage).toBeGreaterThan(10);
    expect((await acr(someone.token, excerpt)).body).toEqual({ ...found.body, cached: true });
    // The artist's store links carry their release id: someone else sees none of them.
    const recording = await app().em().findOneOrFail(RegistryRecording, { releaseId });
    expect(recording.dspLinks.length).toBeGreaterThan(0);
    expect(JSON.stringify(recording.dspLinks)).toContain(releaseId);
    expect(found.body.bestMatch.dspLinks).toEqual([]);
    expect(JSON.stringify(found.body)).not.toContain(releaseId);
    // A result stored before links were withheld is not served from the cache: it is checked again.
    const stored = await app()
      .em()
      .findOneOrFail(AudioAnalysis, {
        kind: 'registry_match',
        file: { name: path.basename(new URL(excerpt, app().url).pathname) },
      });
    const { resultFormat: _, ...older } = stored.result as Record<string, unknown>;
    const olderMatch = { ...(older.bestMatch as Record<string, unknown>), dspLinks: recording.dspLinks };
    await app()
      .em()
      .nativeUpdate(AudioAnalysis, { id: stored.id }, { result: { ...older, bestMatch: olderMatch } });
    const rechecked = await acr(someone.token, excerpt);
    expect(rechecked.body).toMatchObject({ cached: false, bestMatch: { dspLinks: [], releaseId: null } });
    expect(JSON.stringify(rechecked.body)).not.toContain(releaseId);

    const strangerFile = path.join(dir, 'stranger.wav');
    await writeWav(strangerFile, musicLike(977, 12));
    const stranger = await acr(someone.token, await upload(someone.token, strangerFile));
    expect(stranger.body).toMatchObject({ status: 'ok', matched: false, bestMatch: null });

    const own = await upload(artist.token, await distortedExcerpt(original, 'own.mp3', 3));
    const tool = await request(app().url, 'POST', '/api/mcp', {
      token: artist.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'detect_audio_pex_search_acr', arguments: { fileUrl: own } },
      },
    });
    expect(JSON.parse(tool.body.result.content[0].text)).toMatchObject({
      matched: true,
      bestMatch: { ownRelease: true, releaseId, isrc: track.isrc, dspLinks: recording.dspLinks },
    });
    expect((await acr(artist.token, excerpt)).status).toBe(404);
  });

  it('registry:import fingerprints a CSV catalogue; its entries match with their metadata', async () => {
    const reference = path.join(dir, 'reference.wav');
    await writeWav(reference, musicLike(55, 20));
    const csv = path.join(dir, 'catalogue.csv');
    await writeFile(
      csv,
      'title,artist,isrc,album,label,links,audio\n' +
        '"Harbour, at Night",Mira Vale,GB-ABC-24-00001,Lanterns,North Pier,Spotify=https://open.spotify.example/track/1,reference.wav\n',
    );
    const { stdout } = await run(process.execPath, ['src/cli/admin.ts', 'registry:import', csv], {
      env: { ...process.env, DATABASE_URL: app().services.config.DATABASE_URL! },
    });
    expect(JSON.parse(stdout)).toMatchObject({ entries: 1, imported: 1, failed: [] });
    const someone = await accountWithToken(app().em());
    const excerpt = await upload(someone.token, await distortedExcerpt(reference, 'ref-excerpt.mp3', 5));
    const gql = await request(app().url, 'POST', '/graphql', {
      token: someone.token,
      body: {
        query:
          'mutation($url: String!) { acrCheck(fileUrl: $url) { status matched bestMatch { title artist isrc albumName label ownRelease dspLinks { name url } } } }',
        variables: { url: excerpt },
      },
    });
    expect(gql.body.data.acrCheck).toEqual({
      status: 'OK',
      matched: true,
      bestMatch: {
        title: 'Harbour, at Night',
        artist: 'Mira Vale',
        isrc: 'GBABC2400001',
        albumName: 'Lanterns',
        label: 'North Pier',
        ownRelease: false,
        dspLinks: [{ name: 'Spotify', url: 'https://open.spotify.example/track/1' }],
      },
    });
  });
  it('a cached "no match" lasts until the registry changes: the next check after an addition looks again', async () => {
    const reference = path.join(dir, 'later.wav');
    await writeWav(reference, musicLike(83, 20));
    const someone = await accountWithToken(app().em());
    const excerpt = await upload(someone.token, await distortedExcerpt(reference, 'later-excerpt.mp3', 4));
    const before = await acr(someone.token, excerpt);
    expect(before.body).toMatchObject({ status: 'ok', matched: false, cached: false });
    expect((await acr(someone.token, excerpt)).body).toMatchObject({ matched: false, cached: true });

    const csv = path.join(dir, 'later.csv');
    await writeFile(csv, 'title,artist,isrc,album,label,links,audio\nLater Light,Ona Reyes,,,,,later.wav\n');
    await run(process.execPath, ['src/cli/admin.ts', 'registry:import', csv], {
      env: { ...process.env, DATABASE_URL: app().services.config.DATABASE_URL! },
    });

    const after = await acr(someone.token, excerpt);
    expect(after.body).toMatchObject({ matched: true, cached: false, bestMatch: { title: 'Later Light' } });
    expect((await acr(someone.token, excerpt)).body).toEqual({ ...after.body, cached: true });
  });
  it('a recording dated before a cached check but committed after it still makes the check look again', async () => {
    const reference = path.join(dir, 'raced.wav');
    await writeWav(reference, musicLike(97, 20));
    const someone = await accountWithToken(app().em());
    const excerpt = await upload(someone.token, await distortedExcerpt(reference, 'raced-excerpt.mp3', 5));
    expect((await acr(someone.token, excerpt)).body).toMatchObject({ matched: false, cached: false });

    const csv = path.join(dir, 'raced.csv');
    await writeFile(csv, 'title,artist,isrc,album,label,links,audio\nRaced Light,Ona Reyes,,,,,raced.wav\n');
    await run(process.execPath, ['src/cli/admin.ts', 'registry:import', csv], {
      env: { ...process.env, DATABASE_URL: app().services.config.DATABASE_URL! },
    });
    // As a writer whose clock read came before the check and whose commit came after it.
    await app()
      .em()
      .nativeUpdate(
        RegistryRecording,
        { title: 'Raced Light' },
        { createdAt: new Date('2020-01-01T00:00:00Z') },
      );

    const after = await acr(someone.token, excerpt);
    expect(after.body).toMatchObject({ matched: true, cached: false, bestMatch: { title: 'Raced Light' } });
  });
});
