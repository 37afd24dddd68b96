import { describe, expect, it } from 'vitest';
import {
  normaliseSubmission,
  prepareForSubmission,
} from '../../../src/domains/releases/rules/engine/index.ts';
import { type Json, track, validPayload } from './helpers.ts';

function prepared(payload: unknown) {
  return prepareForSubmission(normaliseSubmission(payload));
}

describe('prepareForSubmission', () => {
  it('keeps the first locals entry per language and drops versions from title_locals entries', () => {
    const { release, tracks } = prepared({
      release: {
        title_locals: [
          { name: '港の灯り', language: 'ja', title_version: 'ライブ' },
          { name: 'ミナトノアカリ', language: 'JA' },
          { name: '항구의 불빛', language: 'ko', titleVersion: '라이브' },
          { name: 'no language' },
        ],
        artist_locals: [
          { name: 'レナ', languageId: 7 },
          { name: 'れな', languageId: 7 },
          { name: 'Лена', language: 'ru', title_version: 'kept: artist entries have no versions' },
        ],
      },
      tracks: [
        {
          titleLocals: [
            { title: 'ナイト', language: 'ja', version: 'x' },
            { title: 'ないと', language: 'ja' },
          ],
        },
      ],
    });
    expect(release.title_locals).toEqual([
      { name: '港の灯り', language: 'ja' },
      { name: '항구의 불빛', language: 'ko' },
      { name: 'no language' },
    ]);
    expect(release.artist_locals).toEqual([
      { name: 'レナ', languageId: 7 },
      { name: 'Лена', language: 'ru', title_version: 'kept: artist entries have no versions' },
    ]);
    expect(tracks[0]?.title_locals).toEqual([{ name: 'ナイト', language: 'ja' }]);
  });

  it('drops script codes it cannot confirm and spells confirmed ones canonically', () => {
    const { release, tracks } = prepared({
      release: {
        metadata_language: 'en',
        language_and_script_code: 'EN-LATN',
        title_locals: [
          { name: '港', language: 'ja', language_and_script_code: 'ja-Zzzz' },
          { name: '항구', languageId: 3, language_and_script_code: 'ko-Kore' },
        ],
      },
      tracks: [
        { language_and_script_code: 'en-Latn' },
        { language: 'ko', language_and_script_code: 'ja-Jpan' },
        { language: 'ja', language_and_script_code: '' },
      ],
    });
    expect(release.language_and_script_code).toBe('en-Latn');
    expect(release.title_locals).toEqual([
      { name: '港', language: 'ja' },
      { name: '항구', languageId: 3 },
    ]);
    expect(tracks[0]).toEqual({});
    // A mismatch is an error that blocks submission; prepare leaves it for the error to name.
    expect(tracks[1]?.language_and_script_code).toBe('ja-Jpan');
    expect(tracks[2]).toEqual({ language: 'ja' });
  });

  it('normalises ISRCs and leaves invalid ones as sent', () => {
    const { tracks } = prepared({
      release: {},
      tracks: [{ isrc: 'ISRC us-ab1-24-00001' }, { isrc: 'ISRC12400001' }, { isrc: 'nope' }, { isrc: '  ' }],
    });
    expect(tracks.map((t) => t.isrc)).toEqual(['USAB12400001', 'ISRC12400001', 'nope', undefined]);
    expect('isrc' in (tracks[3] ?? {})).toBe(false);
  });

  it('resolves store aliases to ids, drops duplicates and keeps omitted or null as null', () => {
    const selected = prepared({
      release: { distribution_store_ids: ['spotify', 301, '302', 'Apple Music', 'TikTok', 'nowhere'] },
      tracks: [],
    });
    expect(selected.release.distribution_store_ids).toEqual([301, 302, 319, 'nowhere']);
    const omitted = prepared({ release: {}, tracks: [] });
    expect(omitted.release.distribution_store_ids).toBeNull();
    expect(omitted.storeSelectionSent).toBe(false);
    const all = prepared({ release: { distribution_store_ids: null }, tracks: [] });
    expect(all.release.distribution_store_ids).toBeNull();
    expect(all.storeSelectionSent).toBe(true);
  });

  it('leaves a valid payload as it is apart from the store list', () => {
    const payload = validPayload();
    const submission = normaliseSubmission(payload);
    const result = prepareForSubmission(submission);
    expect(result.tracks).toEqual(submission.tracks);
    expect(result.release).toEqual(submission.release);
  });

  it('is pure: the submission it is given is not modified', () => {
    const payload = validPayload();
    payload.release.title_locals = [
      { name: '港', language: 'ja', title_version: 'x', language_and_script_code: 'xx-Yyyy' },
      { name: '湾', language: 'ja' },
    ];
    payload.release.distribution_store_ids = ['spotify'];
    (track(payload, 0) as Json).isrc = 'us-ab1-24-00001';
    const submission = normaliseSubmission(payload);
    const before = structuredClone(submission);
    const result = prepareForSubmission(submission);
    expect(submission).toEqual(before);
    expect(result).not.toBe(submission);
    expect(result.release.title_locals).toEqual([{ name: '港', language: 'ja' }]);
    expect(result.tracks[0]?.isrc).toBe('USAB12400001');
    expect(prepareForSubmission(submission)).toEqual(result);
  });
});
