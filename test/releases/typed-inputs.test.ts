import { describe, expect, it } from 'vitest';
import { getFacadeSchema, getSchema } from '../../schema/index.ts';
import { ReleaseShape, TrackShape } from '../../schema/releases/release-shape.ts';
import { fromWire, toWire } from '../../schema/wire-shape.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

const app = useTestApp();

const typed = (submission: { release: Record<string, unknown>; tracks: Record<string, unknown>[] }) => ({
  release: fromWire(ReleaseShape, submission.release),
  tracks: submission.tracks.map((track) => fromWire(TrackShape, track)),
});

describe('typed release inputs on GraphQL', () => {
  it('a typed submission stores the same body REST stores for the same release', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const submission = validSubmission(assets, 2);
    const answer = await graphql(
      app().url,
      `mutation($input: SubmitReleaseInput!) { submitRelease(input: $input) { releaseId status creditsCharged
        release { releaseMetadata { title primaryArtists { name } distributionStoreIds } trackMetadata { title explicitFlag trackType writers { name sharePercent } } } } }`,
      { input: { ...typed(submission), tokenOffset: true } },
      account.token,
    );
    expect(answer.body.errors).toBeUndefined();
    const result = answer.body.data.submitRelease;
    expect(result).toMatchObject({ status: 'SUBMITTED', creditsCharged: 3 });
    expect(result.release.releaseMetadata.title).toBe(submission.release.title);
    expect(result.release.trackMetadata[0]).toMatchObject({
      explicitFlag: false,
      trackType: 'ORIGINAL',
      writers: [
        { name: 'Lena Marlow', sharePercent: 60 },
        { name: 'Samuel Okafor', sharePercent: 40 },
      ],
    });
    const stored = await request(app().url, 'GET', `/v1/releases/${result.releaseId}`, {
      token: account.token,
    });
    const { artist_profiles: _profiles, ...release } = stored.body.release;
    expect(release).toEqual(submission.release);
    expect(stored.body.tracks).toEqual(submission.tracks);
  });

  it('rule problems of a typed submission are validation_failed with wire paths, and nothing is charged', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const input = typed(validSubmission(assets, 1));
    input.tracks[0]!.writers = [];
    const answer = await graphql(
      app().url,
      'mutation($input: SubmitReleaseInput!) { submitRelease(input: $input) { releaseId } }',
      { input },
      account.token,
    );
    const error = answer.body.errors?.[0]?.extensions as { code: string; details: unknown[] };
    expect(error).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(error.details)).toContain('tracks[0].writers');
    const credits = await request(app().url, 'GET', '/v1/me/credits', { token: account.token });
    expect(credits.body.balance).toBe(10);
  });

  it('a text over its column limit is refused at the edge with the GraphQL input path', async () => {
    const account = await accountWithToken(app().em());
    const answer = await graphql(
      app().url,
      'mutation($input: DraftInput!) { saveDraft(input: $input) { releaseId } }',
      { input: { release: { title: 'x'.repeat(501) } } },
      account.token,
    );
    const error = answer.body.errors?.[0]?.extensions as { details: { path: string }[] };
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_argument' });
    expect(error.details[0]?.path).toBe('input.release.title');
  });

  it('drafts take typed track patches, and read back typed', async () => {
    const account = await accountWithToken(app().em());
    const save = (input: Record<string, unknown>) =>
      graphql(
        app().url,
        `mutation($input: DraftInput!) { saveDraft(input: $input) { releaseId snapshot { revision }
          latest { payload { title subGenre } tracks { title trackType previewStartSeconds } } } }`,
        { input },
        account.token,
      );
    const first = await save({
      release: { title: 'Paper Boats', subGenre: 'Indie Pop' },
      tracks: [{ title: 'One', trackType: 'COVER' }],
    });
    expect(first.body.errors).toBeUndefined();
    const releaseId = first.body.data.saveDraft.releaseId;
    const second = await save({
      releaseId,
      trackPatches: [
        { index: 0, patch: { previewStartSeconds: 30 } },
        { index: 1, patch: { title: 'Two' } },
      ],
    });
    expect(second.body.data.saveDraft.latest).toEqual({
      payload: { title: 'Paper Boats', subGenre: 'Indie Pop' },
      tracks: [
        { title: 'One', trackType: 'COVER', previewStartSeconds: 30 },
        { title: 'Two', trackType: null, previewStartSeconds: null },
      ],
    });
    const stored = await request(app().url, 'GET', `/v1/releases/${releaseId}`, { token: account.token });
    expect(stored.body.tracks[0]).toEqual({ title: 'One', track_type: 'cover', preview_start_seconds: 30 });
  });

  it('a value of the wrong type a REST draft kept reads as null on GraphQL, and as sent on REST', async () => {
    const account = await accountWithToken(app().em());
    const draft = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: {
        release: { title: 'Kept', second_genre: 'Folk' },
        tracks: [{ title: 'A', explicit_flag: 'yes' }],
      },
    });
    expect(draft.status).toBe(200);
    const read = await graphql(
      app().url,
      'query($id: ID!) { release(id: $id) { releaseMetadata { title subGenre } trackMetadata { title explicitFlag } } }',
      { id: draft.body.releaseId },
      account.token,
    );
    expect(read.body.data.release).toEqual({
      releaseMetadata: { title: 'Kept', subGenre: 'Folk' },
      trackMetadata: [{ title: 'A', explicitFlag: null }],
    });
    const rest = await request(app().url, 'GET', `/v1/releases/${draft.body.releaseId}`, {
      token: account.token,
    });
    expect(rest.body.tracks[0].explicit_flag).toBe('yes');
  });

  it('wire fields are in the facade schema only', () => {
    for (const name of ['submitReleaseWire', 'saveDraftWire']) {
      expect(getSchema().getMutationType()?.getFields()[name]).toBeUndefined();
      expect(getFacadeSchema().getMutationType()?.getFields()[name]).toBeDefined();
    }
    expect(getSchema().getQueryType()?.getFields().quoteReleaseWire).toBeUndefined();
  });

  it('toWire and fromWire are inverse on a canonical body', () => {
    const body = {
      title: 'T',
      primary_artists: [{ name: 'A', dspone_artist_url: 'https://x.test/artist/1' }],
      dspone_artist_urls: [null, 'https://x.test/artist/2'],
      distribution_store_ids: null,
      title_locals: [{ name: 'ティー', language: 'ja' }],
    };
    expect(toWire(ReleaseShape, fromWire(ReleaseShape, body))).toEqual(body);
  });
});
