import { describe, expect, it } from 'vitest';
import { TrackShape } from '../../schema/releases/release-shape.ts';
import { fromWire } from '../../schema/wire-shape.ts';
import { AudioAnalysis } from '../../src/domains/audio/audio-analysis.entity.ts';
import { StoredFile } from '../../src/domains/uploads/stored-file.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

describe('quote', () => {
  const app = useTestApp();

  it('bills human 1, AI 2 (declared by any AI field, whatever its value), missing audio 0, token offset +1', async () => {
    const account = await accountWithToken(app().em(), { credits: 4 });
    const assets = await uploadAssets(app().url, account);
    const { tracks } = validSubmission(assets, 5);
    tracks[1]!.contains_ai = true;
    tracks[2]!.containsAi = false;
    tracks[3]!.ai_generation_credits = ['Suno'];
    delete tracks[4]!.audio_file_url;
    const quote = await request(app().url, 'POST', '/v1/releases/quote', {
      token: account.token,
      body: { tracks, token_offset: true },
    });
    expect(quote.status).toBe(200);
    expect(
      quote.body.tracks.map((t: { credits: number; reason: string; ai: boolean }) => [
        t.credits,
        t.reason,
        t.ai,
      ]),
    ).toEqual([
      [1, 'human_track', false],
      [2, 'ai_track', true],
      [2, 'ai_track', true],
      [2, 'ai_track', true],
      [0, 'missing_audio', false],
    ]);
    expect(quote.body.summary).toEqual({
      trackCount: 5,
      billableTracks: 4,
      humanTracks: 1,
      aiTracks: 3,
      tracksMissingAudio: 1,
    });
    expect(quote.body.cost).toEqual({ trackCredits: 7, tokenOffsetCredits: 1, totalCredits: 8, totalUsd: 8 });
    expect(quote.body.balance).toEqual({
      available: 4,
      required: 8,
      covered: false,
      shortfallCredits: 4,
      shortfallUsd: 4,
    });
    expect(quote.body.purchase).toMatchObject({ packageId: 'credits_10', credits: 10 });
    expect(quote.body.submittable).toBe(false);
    expect(quote.body.blockers).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'tracks[4].audio_file_url' })]),
    );
    expect(quote.body.rates).toEqual({
      creditsPerHumanTrack: 1,
      creditsPerAiTrack: 2,
      aiSurchargeCredits: 1,
      tokenOffsetCredits: 1,
    });
    const ledger = await request(app().url, 'GET', '/v1/me/credits', { token: account.token });
    expect(ledger.body.balance).toBe(4);
  });

  it('a cached detection saying AI makes a track AI for billing', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const em = app().em();
    const file = await em.findOneOrFail(StoredFile, { name: assets.audioUrl.split('/').at(-1)! });
    em.create(AudioAnalysis, {
      file,
      kind: 'ai_detection',
      result: { status: 'ok', containsAi: true, aiScore: 0.97 },
    });
    await em.flush();
    const { tracks } = validSubmission(assets, 1);
    const quote = await request(app().url, 'POST', '/v1/releases/quote', {
      token: account.token,
      body: { tracks },
    });
    expect(quote.body.tracks[0]).toMatchObject({ ai: true, credits: 2, reason: 'ai_track' });
    expect(quote.body).toMatchObject({ submittable: true, purchase: null, balance: { covered: true } });
  });

  it('is the same on REST, GraphQL and the agent tool', async () => {
    const account = await accountWithToken(app().em(), { credits: 3 });
    const assets = await uploadAssets(app().url, account);
    const { tracks } = validSubmission(assets, 3);
    tracks[0]!.contains_ai = true;
    const rest = await request(app().url, 'POST', '/v1/releases/quote', {
      token: account.token,
      body: { tracks, token_offset: true },
    });
    const gql = await request(app().url, 'POST', '/graphql', {
      token: account.token,
      body: {
        query:
          'query($input: QuoteInput!) { quoteRelease(input: $input) { cost { totalCredits trackCredits } balance { shortfallCredits } tracks { credits reason } } }',
        variables: {
          input: { tracks: tracks.map((track) => fromWire(TrackShape, track)), tokenOffset: true },
        },
      },
    });
    const rpc = await request(app().url, 'POST', '/api/mcp', {
      token: account.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'quote_release', arguments: { tracks, tokenOffset: true } },
      },
    });
    const tool = JSON.parse(rpc.body.result.content[0].text);
    expect(tool).toEqual(rest.body);
    expect(gql.body.data.quoteRelease.cost).toEqual({
      totalCredits: rest.body.cost.totalCredits,
      trackCredits: rest.body.cost.trackCredits,
    });
    expect(gql.body.data.quoteRelease.balance.shortfallCredits).toBe(2);
    expect(gql.body.data.quoteRelease.tracks.map((t: { credits: number }) => t.credits)).toEqual([2, 1, 1]);
  });
});
