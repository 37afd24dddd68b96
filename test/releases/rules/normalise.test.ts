import { describe, expect, it } from 'vitest';
import { isAiDeclared, normaliseSubmission } from '../../../src/domains/releases/rules/engine/index.ts';
import type { TrackInput } from '../../../src/domains/releases/rules/engine/types.ts';
import { AUDIO_1, evaluate, type Json, track, validPayload } from './helpers.ts';

describe('normaliseSubmission', () => {
  it('renames release aliases and keeps other top-level keys out', () => {
    const { release, tracks, storeSelectionSent } = normaliseSubmission({
      release: {
        title: 'Night Drive',
        second_genre: 'Indie Pop',
        languageAndScriptCode: 'en-Latn',
        releasesLocals: [{ title: 'ナイト・ドライブ', language: 'ja' }],
      },
      tracks: [],
      token_offset: true,
      release_id: 'abc',
    });
    expect(release).toEqual({
      title: 'Night Drive',
      sub_genre: 'Indie Pop',
      language_and_script_code: 'en-Latn',
      title_locals: [{ name: 'ナイト・ドライブ', language: 'ja' }],
    });
    expect(tracks).toEqual([]);
    expect(storeSelectionSent).toBe(false);
  });

  it('renames track aliases, keeps ai_generation_credits and turns title into name in title_locals', () => {
    const { tracks } = normaliseSubmission({
      release: {},
      tracks: [
        {
          title: 'Night Drive',
          audioFileUrl: AUDIO_1,
          containsAi: true,
          ai_generation_credits: ['vocals'],
          languageAndScriptCode: 'en-Latn',
          tracksLocals: [{ title: 'ナイト・ドライブ', language: 'ja' }],
        },
        { title: 'Two', audio_file: '/a.wav', titleLocals: [{ title: 'ツー', language: 'ja' }] },
        { title: 'Three', audio_url: '/b.wav' },
      ],
    });
    expect(tracks[0]).toEqual({
      title: 'Night Drive',
      audio_file_url: AUDIO_1,
      contains_ai: true,
      ai_generation_credits: ['vocals'],
      language_and_script_code: 'en-Latn',
      title_locals: [{ name: 'ナイト・ドライブ', language: 'ja' }],
    });
    expect(tracks[1]).toEqual({
      title: 'Two',
      audio_file_url: '/a.wav',
      title_locals: [{ name: 'ツー', language: 'ja' }],
    });
    expect(tracks[2]).toEqual({ title: 'Three', audio_file_url: '/b.wav' });
  });

  it('lets the canonical name win when both are sent', () => {
    const { release, tracks } = normaliseSubmission({
      release: {
        sub_genre: 'Indie Pop',
        second_genre: 'Dream Pop',
        title_locals: [{ name: '港', title: '湾', language: 'ja' }],
        titleLocals: [{ name: 'ignored', language: 'ko' }],
      },
      tracks: [
        {
          audio_file_url: '/canonical.flac',
          audioFileUrl: '/alias.flac',
          contains_ai: false,
          containsAi: true,
        },
      ],
    });
    expect(release.sub_genre).toBe('Indie Pop');
    expect(release.title_locals).toEqual([{ name: '港', language: 'ja' }]);
    expect(tracks[0]?.audio_file_url).toBe('/canonical.flac');
    expect(tracks[0]?.contains_ai).toBe(false);
    expect(Object.keys(tracks[0] ?? {})).toEqual(['audio_file_url', 'contains_ai']);
  });

  it('never throws and keeps wrongly typed values as sent', () => {
    expect(normaliseSubmission(null)).toEqual({ release: {}, tracks: [], storeSelectionSent: false });
    expect(normaliseSubmission('x')).toEqual({ release: {}, tracks: [], storeSelectionSent: false });
    expect(normaliseSubmission({ release: 'x', tracks: 'y' }).tracks).toBe('y');
    const { tracks } = normaliseSubmission({
      release: { title_locals: 'nope' },
      tracks: [null, 7, { explicit_flag: 'yes', writers: 'x', titleLocals: ['z', { title: 't' }] }],
    });
    expect(tracks).toEqual([
      null,
      7,
      { explicit_flag: 'yes', writers: 'x', title_locals: ['z', { name: 't' }] },
    ]);
  });

  it('records whether distribution_store_ids was sent (null counts)', () => {
    expect(normaliseSubmission({ release: { distribution_store_ids: null } }).storeSelectionSent).toBe(true);
    expect(normaliseSubmission({ release: { distribution_store_ids: [301] } }).storeSelectionSent).toBe(true);
    expect(normaliseSubmission({ release: {} }).storeSelectionSent).toBe(false);
  });

  it('does not modify its input', () => {
    const payload = validPayload();
    track(payload, 0).audioFileUrl = track(payload, 0).audio_file_url;
    delete track(payload, 0).audio_file_url;
    const before = structuredClone(payload);
    normaliseSubmission(payload);
    expect(payload).toEqual(before);
  });
});

describe('isAiDeclared', () => {
  it('is true when contains_ai, containsAi or ai_generation_credits is present, whatever the value', () => {
    for (const track of [
      { contains_ai: true },
      { contains_ai: false },
      { contains_ai: null },
      { containsAi: false },
      { ai_generation_credits: [] },
      { ai_generation_credits: '' },
    ]) {
      expect(isAiDeclared(track as TrackInput), JSON.stringify(track)).toBe(true);
    }
    expect(isAiDeclared({ title: 'Human' })).toBe(false);
    expect(isAiDeclared({ contains_ai: undefined })).toBe(false);
    expect(isAiDeclared(null as unknown as TrackInput)).toBe(false);
  });
});

describe('aliases accepted by the rules', () => {
  it('evaluates a payload sent with aliases like the canonical one', async () => {
    const payload = validPayload();
    const release = payload.release;
    release.second_genre = release.sub_genre;
    delete release.sub_genre;
    release.languageAndScriptCode = release.language_and_script_code;
    delete release.language_and_script_code;
    release.titleLocals = [{ title: '港の灯り', language: 'ja', languageAndScriptCode: 'ja-Jpan' }];
    for (const [index, alias] of ['audioFileUrl', 'audio_url'].entries()) {
      const entry: Json = track(payload, index);
      entry[alias] = entry.audio_file_url;
      delete entry.audio_file_url;
    }
    track(payload, 1).tracksLocals = [{ title: 'スロー・リバー', language: 'ja' }];
    expect(await evaluate(payload)).toEqual([]);
  });

  it('reports the canonical value when both are sent', async () => {
    const payload = validPayload();
    track(payload, 0).audio_file_url = '/elsewhere/track.flac';
    track(payload, 0).audioFileUrl = AUDIO_1;
    const issues = await evaluate(payload);
    expect(issues.map((issue) => [issue.rule, issue.path])).toEqual([
      ['audio.owned-file', 'tracks[0].audio_file_url'],
    ]);
  });

  it('reports a bare title in title_locals as the entry name and containsAi false as AI billing', async () => {
    const payload = validPayload();
    track(payload, 0).containsAi = false;
    const issues = await evaluate(payload);
    expect(issues.map((issue) => [issue.rule, issue.path])).toEqual([
      ['ai.disclosure-billing', 'tracks[0].contains_ai'],
    ]);
  });
});
