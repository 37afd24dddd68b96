import { describe, expect, it } from 'vitest';
import { STORES, type Store } from '../../src/domains/catalog/stores.ts';
import {
  buildNewReleaseMessage,
  buildTakedownMessage,
  type ErnTrack,
  type NewReleaseMessageInput,
} from '../../src/domains/delivery/ddex.ts';
import { audio, input } from './ddex-fixtures.ts';
import { ernSchemaErrors, ernSchemaErrorsOf } from './ern-schema.ts';

/** Everything the payload can carry that lands in a message. */
const RICH_RELEASE = {
  title: 'Café del Mar — 夜の海',
  title_version: 'Deluxe Édition',
  primary_artist_name: 'Łucja Ñúñez',
  primary_artists: [{ name: 'Łucja Ñúñez' }, { name: '박서준' }, { name: "Theo O'Brandt" }],
  genre: 'Electronic',
  sub_genre: 'Ambient',
  release_date: '2026-02-06',
  label: 'Harbor Light Records',
  pline_year: '2026',
  pline_owner: 'Harbor Light Records',
  cline_year: '2025',
  cline_owner: 'Łucja Ñúñez',
  audio_language: 'es',
  metadata_language: 'es',
  language_and_script_code: 'es-Latn',
  contributors: [
    { name: 'Mara Quist', role: 'Producer' },
    { name: 'Ode Santos', role: 'Mastering Engineer' },
  ],
  title_locals: [
    { name: '夜の海', language: 'ja', language_and_script_code: 'ja-Jpan' },
    { name: 'Yoru no Umi', language: 'ja', language_and_script_code: 'ja-Latn' },
    { name: 'Mar de noche', language: 'Spanish' },
    { name: 'Без языка', languageId: 7 },
    { language: 'ko' },
  ],
  artist_locals: [
    {
      name: 'ウチャ・ニュニェス',
      language: 'ja',
      language_and_script_code: 'ja-Kana',
      phoneticName: 'uchya',
    },
    { name: 'Лучия Нуньес', language: 'ru' },
  ],
};

function richTrack(index: number): ErnTrack {
  return {
    position: index,
    title: index % 2 ? `Ñandú ${index + 1} «Mañana»` : `Song ${index + 1} & <Friends>`,
    titleVersion: index === 1 ? 'Radio Edit' : null,
    explicit: index % 3 === 1,
    payload: {
      language: index === 2 ? 'ko' : 'es',
      genre: index === 3 ? 'Dance' : undefined,
      pline_owner: index === 0 ? 'Ñúñez Music' : undefined,
      pline_year: index === 0 ? 2024 : undefined,
      preview_start_seconds: index === 0 ? 9_999 : 30,
      ...(index === 2 ? { primary_artists: [{ name: '박서준' }, { name: 'Mara Quist' }] } : {}),
      writers: [
        { name: 'Łucja Ñúñez', ipi: '00052210040', share_percent: 50 },
        { name: 'Ode Santos', ipi: '522100410', share_percent: 50 },
        { name: 'No IPI Person', ipi: 'not-an-ipi' },
      ],
      contributors: [
        { name: 'Mara Quist', role: 'Mixing Engineer' },
        { name: 'Mara Quist', role: 'Producer' },
        { name: 'Ode Santos', role: 'Guitar (12-string)' },
        { name: 'Łucja Ñúñez', role: 'Vocals' },
      ],
      title_locals: [{ name: `トラック${index + 1}`, language: 'ja', language_and_script_code: 'ja-Jpan' }],
      artist_locals: [{ name: 'ウチャ', language: 'ja' }],
    },
    audio: audio(index, 150 + index * 37.5),
  };
}

/** The least a release can carry: no label, lines, locals, cover or contributors; bad codes dropped. */
function bareInput(count: number): Partial<NewReleaseMessageInput> {
  return {
    release: {
      id: 'bare',
      title: 'Bare',
      primaryArtistName: 'Solo',
      payload: {
        release: {
          title: 'Bare',
          primary_artist_name: 'Solo',
          genre: 'Rock',
          pline_year: '26',
          language_and_script_code: 'English',
        },
      },
    },
    tracks: Array.from({ length: count }, (_, i) => ({
      position: i,
      title: `Take ${i + 1}`,
      explicit: false,
      payload: { language: 'English', preview_start_seconds: -4 },
      audio: { uri: `resources/x_01_00${i + 1}.flac`, sha256: 'f'.repeat(64), size: 1, durationSeconds: 61 },
    })),
    coverArt: null,
  };
}

function policiesOf(store: Store): (string | null)[] {
  return store.ugcPolicy ? [null, ...store.ugcPolicy.codes.map((code) => code.code)] : [null];
}

interface Case {
  label: string;
  message: string;
}

/** Every store of the catalog × every policy it takes × single, EP, album × rich and bare × new, takedown. */
function allCases(): Case[] {
  const cases: Case[] = [];
  for (const store of STORES)
    for (const ugcPolicy of policiesOf(store))
      for (const count of [1, 4, 8])
        for (const payload of ['rich', 'bare'] as const) {
          const base = input({
            store,
            ugcPolicy,
            isrcs: Array.from({ length: count }, (_, i) => `XXTRB26${String(i).padStart(5, '0')}`),
            ...(payload === 'rich'
              ? {
                  release: {
                    id: 'rich',
                    title: RICH_RELEASE.title,
                    primaryArtistName: null,
                    payload: { release: RICH_RELEASE },
                  },
                  tracks: Array.from({ length: count }, (_, i) => richTrack(i)),
                }
              : bareInput(count)),
          });
          const label = `${store.storeId} ${ugcPolicy ?? '-'} ${count} tracks ${payload}`;
          cases.push({ label: `${label} new`, message: buildNewReleaseMessage(base) });
          cases.push({
            label: `${label} takedown`,
            message: buildTakedownMessage({ ...base, takenDownAt: new Date('2026-03-01T00:00:00Z') }),
          });
        }
  return cases;
}

describe('every ERN message the builder makes validates against DDEX ERN 4.3', () => {
  it('all stores, policies, release sizes, payloads, new releases and takedowns: 420 messages, 0 errors', async () => {
    const cases = allCases();
    expect(cases).toHaveLength(420);
    const errors = await ernSchemaErrors(cases.map((c) => c.message));
    const invalid = cases
      .map((c, index) => ({ label: c.label, errors: errors[index]! }))
      .filter((c) => c.errors.length > 0);
    expect(invalid).toEqual([]);
  });

  it('the rich payload reaches the message: locals, contributors, writers, explicit, non-ASCII', () => {
    const message = buildNewReleaseMessage(
      input({
        release: {
          id: 'rich',
          title: RICH_RELEASE.title,
          primaryArtistName: null,
          payload: { release: RICH_RELEASE },
        },
        tracks: [richTrack(0), richTrack(1), richTrack(2)],
        isrcs: ['XXTRB2600001', 'XXTRB2600002', 'XXTRB2600003'],
      }),
    );
    expect(message).toContain(
      '<DisplayTitleText IsDefault="true">Café del Mar — 夜の海 (Deluxe Édition)</DisplayTitleText>',
    );
    expect(message).toContain('<DisplayTitleText LanguageAndScriptCode="ja-Jpan">夜の海</DisplayTitleText>');
    expect(message).toContain('<DisplayTitle LanguageAndScriptCode="ja-Latn">');
    // Entries ERN cannot label (a language name, a numeric id) or without a name are left out.
    expect(message).not.toContain('Mar de noche');
    expect(message).not.toContain('Без языка');
    expect(message).toContain(
      '<DisplayArtistName IsDefault="true">Łucja Ñúñez, 박서준 &amp; Theo O&apos;Brandt</DisplayArtistName>',
    );
    expect(message).toContain(
      '<DisplayArtistName LanguageAndScriptCode="ja-Kana">ウチャ・ニュニェス, 박서준 &amp; Theo O&apos;Brandt</DisplayArtistName>',
    );
    expect(message).toContain('<PartyName LanguageAndScriptCode="ru">');
    expect(message).toContain('<IpiNameNumber>00052210040</IpiNameNumber>');
    expect(message).toContain('<IpiNameNumber>00522100410</IpiNameNumber>');
    expect(message).toContain('<Role>ComposerLyricist</Role>');
    expect(message).toContain('<Role>MixingEngineer</Role>');
    expect(message).toContain('<Role>StudioProducer</Role>');
    expect(message).toContain('<Role>MasteringEngineer</Role>');
    expect(message).toContain(
      '<Role Namespace="PADPIDA2026TRB0001" UserDefinedValue="Guitar (12-string)">UserDefined</Role>',
    );
    expect(message).toContain('<ParentalWarningType>Explicit</ParentalWarningType>');
    expect(message).toContain('<LanguageOfPerformance>ko</LanguageOfPerformance>');
    expect(message).toContain('<PLineText>℗ 2024 Ñúñez Music</PLineText>');
    expect(message).toContain('<CLineText>© 2025 Łucja Ñúñez</CLineText>');
    // A preview start past the end of the track starts the preview at 0.
    expect(message).toContain('<StartPoint>0</StartPoint>');
    expect(message).toContain('<StartPoint>30</StartPoint>');
  });

  it('the helper reports schema errors, element by element', async () => {
    const valid = buildNewReleaseMessage(input());
    expect(await ernSchemaErrorsOf(valid)).toEqual([]);
    const broken = valid
      .replace(
        '<ProprietaryId Namespace="PADPIDA2026TRB0001">036000291452_XXTRB2600001</ProprietaryId>',
        '<ISRC>XXTRB2600001</ISRC>',
      )
      .replace('<Duration>PT3M20S</Duration>', '');
    const errors = await ernSchemaErrorsOf(broken);
    expect(errors).toHaveLength(2);
    expect(errors.join('\n')).toMatch(/Element 'ISRC': This element is not expected/);
    expect(errors.join('\n')).toMatch(
      /Element 'ParentalWarningType': This element is not expected. Expected is .*Duration/,
    );
    expect(await ernSchemaErrorsOf('<a><b></a>')).not.toEqual([]);
  });
});
