import { describe, expect, it } from 'vitest';
import type { RuleSeverity } from '../../../src/domains/releases/rules/rule-catalog.ts';
import { RULES } from '../../../src/domains/releases/rules/rule-catalog.ts';
import {
  AUDIO_1,
  COVER_URL,
  evaluate,
  type FakeAnswers,
  type Json,
  type Payload,
  track,
  validPayload,
} from './helpers.ts';

interface Case {
  rule: string;
  severity: RuleSeverity;
  path: string;
  mutate?: (payload: Payload) => void;
  answers?: FakeAnswers;
  /** Other rules the same input also trips (every other rule must stay silent). */
  also?: string[];
}

const release = (payload: Payload): Json => payload.release;
const writers = (payload: Payload, index: number) => track(payload, index).writers as Json[];

const CASES: Case[] = [
  // field names and the genre catalogue
  {
    rule: 'fields.unknown',
    severity: 'warning',
    path: 'tracks[0].explicit',
    mutate: (p) => {
      track(p, 0).explicit = true;
    },
  },
  {
    rule: 'genre.not-in-catalogue',
    severity: 'warning',
    path: 'release.genre',
    mutate: (p) => {
      release(p).genre = 'Hiphop';
    },
  },
  // required
  {
    rule: 'required.release-title',
    severity: 'error',
    path: 'release.title',
    mutate: (p) => delete release(p).title,
  },
  {
    rule: 'required.track-title',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = '   ';
    },
  },
  {
    rule: 'required.primary-artist',
    severity: 'error',
    path: 'release.primary_artist_name',
    mutate: (p) => delete release(p).primary_artist_name,
  },
  {
    rule: 'required.primary-artist-entry-name',
    severity: 'error',
    path: 'release.primary_artists[1].name',
    mutate: (p) => {
      release(p).primary_artists = [{ name: 'Lena Marlow' }, { dspone_artist_url: '0OdUWJ0sBjDrqHygGUXeCF' }];
    },
  },
  {
    rule: 'required.genre',
    severity: 'error',
    path: 'release.genre',
    mutate: (p) => {
      release(p).genre = 42;
    },
  },
  {
    rule: 'required.release-date',
    severity: 'error',
    path: 'release.release_date',
    mutate: (p) => delete release(p).release_date,
  },
  {
    rule: 'required.cover-art',
    severity: 'error',
    path: 'release.cover_art_file_url',
    mutate: (p) => delete release(p).cover_art_file_url,
  },
  {
    rule: 'required.tracks',
    severity: 'error',
    path: 'tracks',
    mutate: (p) => {
      p.tracks = [];
    },
  },
  {
    rule: 'required.audio',
    severity: 'error',
    path: 'tracks[1].audio_file_url',
    mutate: (p) => delete track(p, 1).audio_file_url,
  },
  {
    rule: 'required.explicit-flag',
    severity: 'error',
    path: 'tracks[0].explicit_flag',
    mutate: (p) => {
      track(p, 0).explicit_flag = 'yes';
    },
  },
  {
    rule: 'required.writers',
    severity: 'error',
    path: 'tracks[0].writers',
    mutate: (p) => {
      track(p, 0).writers = 'x';
    },
  },
  {
    rule: 'required.writer-name',
    severity: 'error',
    path: 'tracks[0].writers[1].name',
    mutate: (p) => {
      (writers(p, 0)[1] as Json).name = '';
    },
  },
  // identifiers
  {
    rule: 'isrc.format',
    severity: 'error',
    path: 'tracks[0].isrc',
    mutate: (p) => {
      track(p, 0).isrc = 'US-AB1-24-0001';
    },
  },
  {
    rule: 'isrc.unique-in-release',
    severity: 'error',
    path: 'tracks[1].isrc',
    mutate: (p) => {
      track(p, 0).isrc = 'USAB12400001';
      track(p, 1).isrc = 'ISRC us-ab1-24-00001';
    },
  },
  {
    rule: 'isrc.unique-in-catalog',
    severity: 'error',
    path: 'tracks[0].isrc',
    mutate: (p) => {
      track(p, 0).isrc = 'USAB12400001';
    },
    answers: { isrcsInUse: ['USAB12400001'] },
  },
  {
    rule: 'upc.format',
    severity: 'error',
    path: 'release.upc',
    mutate: (p) => {
      release(p).upc = '03600029145';
    },
  },
  {
    rule: 'upc.check-digit',
    severity: 'error',
    path: 'release.upc',
    mutate: (p) => {
      release(p).upc = '036000291453';
    },
  },
  {
    rule: 'upc.unique-in-catalog',
    severity: 'error',
    path: 'release.upc',
    mutate: (p) => {
      release(p).upc = '036000291452';
    },
    answers: { upcsInUse: ['036000291452'] },
  },
  {
    rule: 'link.artist-profile-only',
    severity: 'error',
    path: 'release.dspone_artist_url',
    mutate: (p) => {
      release(p).dspone_artist_url = 'https://open.dspone.example/album/4aawyAB9vmqN3uQ7FjRGTy';
    },
  },
  {
    rule: 'link.dsptwo-profile-form',
    severity: 'error',
    path: 'release.dsptwo_artist_url',
    mutate: (p) => {
      release(p).dsptwo_artist_url = 'https://music.dsptwo.example/artist/jane-doe/1440833098';
    },
  },
  // titles
  {
    rule: 'title.not-all-caps',
    severity: 'warning',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'NIGHT DRIVE';
    },
  },
  {
    rule: 'title.not-all-lowercase',
    severity: 'warning',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'night drive';
    },
  },
  {
    rule: 'title.english-title-case',
    severity: 'warning',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Walking In The Rain';
    },
  },
  {
    rule: 'title.feat-format',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Night Drive ft. Jane Doe';
    },
  },
  {
    rule: 'title.no-artist-name',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Lena Marlow - Night Drive';
    },
  },
  {
    rule: 'title.no-explicit-clean',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Night Drive (Explicit)';
    },
  },
  {
    rule: 'title.no-standard-version-label',
    severity: 'warning',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Night Drive (Album Version)';
    },
  },
  {
    rule: 'title.no-marketing-words',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Night Drive (Official Exclusive)';
    },
  },
  {
    rule: 'title.no-emoji',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Night Drive 🚗';
    },
  },
  {
    rule: 'title.no-url-handle-hashtag',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Night Drive #summer';
    },
  },
  {
    rule: 'title.no-self-censoring',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'F**k It';
      track(p, 0).explicit_flag = true;
    },
  },
  {
    rule: 'title.version-in-title-version',
    severity: 'warning',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Night Drive (Acoustic)';
    },
  },
  {
    rule: 'title-version.remix',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Night Drive (Jane Doe Rmx)';
    },
  },
  {
    rule: 'title-version.remixer-credit',
    severity: 'warning',
    path: 'tracks[0].contributors',
    mutate: (p) => {
      track(p, 0).title_version = 'Jane Doe Remix';
    },
  },
  {
    rule: 'title.no-placeholder',
    severity: 'error',
    path: 'tracks[0].title',
    mutate: (p) => {
      track(p, 0).title = 'Track 1';
    },
  },
  {
    rule: 'title.unique-tracks',
    severity: 'error',
    path: 'tracks[1].title',
    mutate: (p) => {
      track(p, 1).title = 'Lights over the Harbor';
    },
  },
  {
    rule: 'title.single-matches-track',
    severity: 'error',
    path: 'release.title',
    mutate: (p) => {
      p.tracks = [track(p, 0)];
      release(p).title = 'Lights over the Harbor - Single';
    },
  },
  {
    rule: 'title.vol-part-format',
    severity: 'warning',
    path: 'release.title',
    mutate: (p) => {
      release(p).title = 'Summer Hits Volume 2';
    },
  },
  // artists
  {
    rule: 'artist.generic-name',
    severity: 'error',
    path: 'tracks[1].primary_artist_name',
    mutate: (p) => {
      track(p, 1).primary_artist_name = 'Relaxing Music';
    },
  },
  {
    rule: 'artist.one-per-field',
    severity: 'warning',
    path: 'tracks[0].primary_artist_name',
    mutate: (p) => {
      track(p, 0).primary_artist_name = 'Jane Doe & John Roe';
    },
  },
  {
    rule: 'artist.no-extra-info',
    severity: 'error',
    path: 'release.primary_artists[1].name',
    mutate: (p) => {
      release(p).primary_artists = [{ name: 'Lena Marlow' }, { name: 'Jane Doe (Official)' }];
    },
  },
  {
    rule: 'artist.various-artists-release-only',
    severity: 'error',
    path: 'tracks[0].primary_artist_name',
    mutate: (p) => {
      track(p, 0).primary_artist_name = 'Various Artists';
    },
  },
  {
    rule: 'artist.no-va-abbreviation',
    severity: 'error',
    path: 'tracks[0].primary_artist_name',
    mutate: (p) => {
      track(p, 0).primary_artist_name = 'V/A';
    },
  },
  {
    rule: 'artist.primary-name-matches-list',
    severity: 'error',
    path: 'release.primary_artist_name',
    mutate: (p) => {
      release(p).primary_artist_name = 'Lena Marlowe';
    },
  },
  {
    rule: 'artist.link-arrays-length',
    severity: 'error',
    path: 'release.dsptwo_artist_urls',
    mutate: (p) => {
      release(p).dsptwo_artist_urls = [null, 'https://music.dsptwo.example/us/artist/jane-doe/1440833098'];
    },
  },
  // credits
  {
    rule: 'writers.full-legal-name',
    severity: 'error',
    path: 'tracks[0].writers[0].name',
    mutate: (p) => {
      (writers(p, 0)[0] as Json).name = 'J. Marlow';
    },
  },
  {
    rule: 'writers.share-range',
    severity: 'error',
    path: 'tracks[0].writers[0].share_percent',
    mutate: (p) => {
      (writers(p, 0)[0] as Json).share_percent = 120;
    },
  },
  {
    rule: 'writers.share-total',
    severity: 'error',
    path: 'tracks[0].writers[1].share_percent',
    mutate: (p) => {
      (writers(p, 0)[1] as Json).share_percent = 30;
    },
  },
  // AI disclosure
  {
    rule: 'ai.disclosure-billing',
    severity: 'warning',
    path: 'tracks[0].contains_ai',
    mutate: (p) => {
      track(p, 0).contains_ai = false;
    },
  },
  {
    rule: 'ai.detector-mismatch',
    severity: 'warning',
    path: 'tracks[0].audio_file_url',
    answers: { aiDetections: { [AUDIO_1]: { containsAi: true } } },
  },
  // cover songs
  {
    rule: 'title-version.no-bare-cover',
    severity: 'error',
    path: 'tracks[0].title_version',
    mutate: (p) => {
      track(p, 0).title_version = 'Cover';
    },
  },
  {
    rule: 'track-type.allowed-values',
    severity: 'error',
    path: 'tracks[0].track_type',
    mutate: (p) => {
      track(p, 0).track_type = 'instrumental';
    },
  },
  {
    rule: 'track-type.no-remix',
    severity: 'error',
    path: 'tracks[0].track_type',
    mutate: (p) => {
      track(p, 0).track_type = 'remix';
    },
  },
  {
    rule: 'cover.credit-original-writers',
    severity: 'warning',
    path: 'tracks[0].writers',
    mutate: (p) => {
      track(p, 0).track_type = 'cover';
      track(p, 0).writers = [{ name: 'Lena Marlow' }];
    },
  },
  {
    rule: 'cover.public-domain-declared',
    severity: 'warning',
    path: 'tracks[0].track_type',
    mutate: (p) => {
      track(p, 0).writers = [{ name: 'Traditional' }];
    },
  },
  {
    rule: 'cover.registry-match-ownership',
    severity: 'warning',
    path: 'tracks[0].track_type',
    answers: { registryMatches: { [AUDIO_1]: { matched: true } } },
  },
  // assets
  {
    rule: 'cover-art.owned-file',
    severity: 'error',
    path: 'release.cover_art_file_url',
    answers: { notOwned: [COVER_URL] },
  },
  {
    rule: 'cover-art.upscaled',
    severity: 'warning',
    path: 'release.cover_art_file_url',
    answers: { facts: { [COVER_URL]: { warnings: ['cover_art_upscaled'], lossless: null } } },
  },
  {
    rule: 'audio.owned-file',
    severity: 'error',
    path: 'tracks[0].audio_file_url',
    mutate: (p) => {
      track(p, 0).audio_file_url = COVER_URL;
    },
  },
  {
    rule: 'audio.decodable',
    severity: 'error',
    path: 'tracks[0].audio_file_url',
    answers: { facts: { [AUDIO_1]: { warnings: ['undecodable_audio'], lossless: null } } },
  },
  {
    rule: 'audio.lossless',
    severity: 'warning',
    path: 'tracks[0].audio_file_url',
    answers: { facts: { [AUDIO_1]: { warnings: ['audio_lossy_source'], lossless: false } } },
  },
  {
    rule: 'track.preview-start',
    severity: 'error',
    path: 'tracks[0].preview_start_seconds',
    mutate: (p) => {
      track(p, 0).preview_start_seconds = 12.5;
    },
  },
  // dates
  {
    rule: 'release-date.format',
    severity: 'error',
    path: 'release.release_date',
    mutate: (p) => {
      release(p).release_date = '2026-02-30';
    },
  },
  {
    rule: 'release-date.lead-time',
    severity: 'warning',
    path: 'release.release_date',
    mutate: (p) => {
      release(p).release_date = '2026-03-04';
    },
  },
  // stores
  {
    rule: 'stores.non-empty-selection',
    severity: 'error',
    path: 'release.distribution_store_ids',
    mutate: (p) => {
      release(p).distribution_store_ids = [];
    },
  },
  {
    rule: 'stores.known-store',
    severity: 'error',
    path: 'release.distribution_store_ids[1]',
    mutate: (p) => {
      release(p).distribution_store_ids = ['spotify', 'napster-plus', 306];
    },
  },
  {
    rule: 'stores.explicit-selection',
    severity: 'warning',
    path: 'release.distribution_store_ids',
    mutate: (p) => delete release(p).distribution_store_ids,
  },
  {
    rule: 'stores.partner-approval',
    severity: 'warning',
    path: 'release.distribution_store_ids[1]',
    mutate: (p) => {
      release(p).distribution_store_ids = [301, 'youtube-content-id'];
    },
  },
  // localization
  {
    rule: 'language.iso-639-1',
    severity: 'error',
    path: 'release.audio_language',
    mutate: (p) => {
      release(p).audio_language = 'eng';
    },
  },
  {
    rule: 'script-code.language-match',
    severity: 'error',
    path: 'release.language_and_script_code',
    mutate: (p) => {
      release(p).metadata_language = 'ko';
      release(p).language_and_script_code = 'ja-Jpan';
    },
  },
  {
    rule: 'script-code.unconfirmed-dropped',
    severity: 'warning',
    path: 'tracks[0].language_and_script_code',
    mutate: (p) => {
      track(p, 0).language_and_script_code = 'xx-Zzzz';
    },
  },
  {
    rule: 'locals.language-required',
    severity: 'error',
    path: 'release.title_locals[0].language',
    mutate: (p) => {
      release(p).title_locals = [{ name: '港の灯り' }];
    },
  },
  {
    rule: 'locals.one-per-language',
    severity: 'warning',
    path: 'release.title_locals[1]',
    mutate: (p) => {
      release(p).title_locals = [
        { name: '港の灯り', language: 'ja' },
        { name: 'ミナトノアカリ', language: 'ja' },
      ];
    },
  },
  {
    rule: 'locals.no-title-version',
    severity: 'warning',
    path: 'release.title_locals[0].title_version',
    mutate: (p) => {
      release(p).title_locals = [{ name: '港の灯り', language: 'ja', title_version: 'ライブ' }];
    },
  },
];

describe('every catalog rule fires on a failing input', () => {
  it.each(CASES)('$rule ($severity) at $path', async (testCase) => {
    const payload = validPayload();
    testCase.mutate?.(payload);
    const issues = await evaluate(payload, testCase.answers);
    expect(issues).toContainEqual(
      expect.objectContaining({ rule: testCase.rule, severity: testCase.severity, path: testCase.path }),
    );
    const found = issues.find((issue) => issue.rule === testCase.rule && issue.path === testCase.path);
    expect(found?.message.length).toBeGreaterThan(10);
    expect(new Set(issues.map((issue) => issue.rule))).toEqual(
      new Set([testCase.rule, ...(testCase.also ?? [])]),
    );
  });

  it('exercises exactly the set of rule ids in RULES', () => {
    const exercised = new Set(CASES.map((testCase) => testCase.rule));
    expect([...exercised].sort()).toEqual(RULES.map((rule) => rule.id).sort());
    expect(CASES.length).toBe(RULES.length);
  });

  it('uses the catalog severity for each case', () => {
    for (const testCase of CASES) {
      expect(RULES.find((rule) => rule.id === testCase.rule)?.severity, testCase.rule).toBe(
        testCase.severity,
      );
    }
  });
});

describe('catalog examples', () => {
  /** Rules whose example `bad` is a plain value of their first field path. */
  const VALUE_EXAMPLES = [
    'artist.generic-name',
    'artist.no-extra-info',
    'artist.no-va-abbreviation',
    'title.not-all-caps',
    'title.not-all-lowercase',
    'title.english-title-case',
    'title.feat-format',
    'title.no-explicit-clean',
    'title.no-standard-version-label',
    'title.no-marketing-words',
    'title.no-url-handle-hashtag',
    'title.no-self-censoring',
    'title.no-placeholder',
    'title.vol-part-format',
    'writers.full-legal-name',
    'isrc.format',
    'upc.format',
    'upc.check-digit',
    'link.artist-profile-only',
    'link.dsptwo-profile-form',
    'release-date.format',
    'language.iso-639-1',
  ];

  it.each(VALUE_EXAMPLES)('%s fires on its bad example, not on its good one', async (id) => {
    const rule = RULES.find((candidate) => candidate.id === id);
    const field = rule?.fieldPaths[0] ?? '';
    const match = /^(release|tracks\[\])\.(\w+)(\[\]\.name)?$/.exec(field);
    if (!rule?.example || !match?.[2]) throw new Error(`${id} has no value example on ${field}`);
    const { bad, good } = rule.example;
    const key = match[2];
    const run = async (value: string) => {
      const payload = validPayload();
      const target = match[1] === 'release' ? payload.release : track(payload, 0);
      target[key] = match[3] ? [{ name: value, share_percent: 100 }] : value;
      if (key === 'primary_artist_name') delete target.primary_artists;
      return (await evaluate(payload)).filter((issue) => issue.rule === id);
    };
    const badIssues = await run(bad);
    expect(badIssues.length, bad).toBeGreaterThan(0);
    const suggestion = badIssues[0]?.suggestion;
    if (suggestion !== undefined) expect(suggestion).toBe(good);
    expect(await run(good), good).toEqual([]);
  });
});
