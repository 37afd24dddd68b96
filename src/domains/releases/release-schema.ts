import { resolveStoreId } from '../catalog/index.ts';
import { CREDITS_PER_AI_TRACK, CREDITS_PER_HUMAN_TRACK, TOKEN_OFFSET_CREDITS } from '../credits/index.ts';

const REQUIRED = {
  release: ['title', 'primary_artist_name', 'genre', 'release_date', 'cover_art_file_url'],
  track: ['title', 'audio_file_url', 'explicit_flag', 'writers'],
  writer: ['name'],
  primaryArtist: ['name'],
};

const OPTIONAL = {
  release: [
    'title_version',
    'primary_artists',
    'dspone_artist_urls',
    'dsptwo_artist_urls',
    'dspone_artist_url',
    'dsptwo_artist_url',
    'sub_genre',
    'label',
    'audio_language',
    'metadata_language',
    'metadata_language_country',
    'distribution_store_ids',
    'pline_year',
    'pline_owner',
    'cline_year',
    'cline_owner',
    'contributors',
    'artist_locals',
    'title_locals',
    'language_and_script_code',
  ],
  track: [
    'title_version',
    'primary_artist_name',
    'primary_artists',
    'track_type',
    'isrc',
    'genre',
    'language',
    'lyrics',
    'preview_start_seconds',
    'pline_year',
    'pline_owner',
    'cline_year',
    'cline_owner',
    'contributors',
    'artist_locals',
    'title_locals',
    'language_and_script_code',
    'contains_ai',
    'ai_generation_credits',
  ],
};

/** Accepted alias -> canonical field name. */
const ALIASES: Record<string, string> = {
  second_genre: 'sub_genre',
  languageAndScriptCode: 'language_and_script_code',
  titleLocals: 'title_locals',
  releasesLocals: 'title_locals',
  tracksLocals: 'title_locals',
  'title_locals[].title': 'title_locals[].name',
  audioFileUrl: 'audio_file_url',
  audio_file: 'audio_file_url',
  audio_url: 'audio_file_url',
  containsAi: 'contains_ai',
  releaseId: 'release_id',
  conversationId: 'conversation_id',
  tokenOffset: 'token_offset',
};

/** Every name a release object may carry: canonical fields and their accepted aliases. */
export function releaseFieldNames(): string[] {
  return [...REQUIRED.release, ...OPTIONAL.release, ...aliasesOf('release')];
}

/** Every name a track object may carry: canonical fields and their accepted aliases. */
export function trackFieldNames(): string[] {
  return [...REQUIRED.track, ...OPTIONAL.track, ...aliasesOf('track')];
}

/** The aliases whose canonical field belongs to that object (top-level names only). */
function aliasesOf(part: 'release' | 'track'): string[] {
  const fields: readonly string[] = [...REQUIRED[part], ...OPTIONAL[part]];
  return Object.entries(ALIASES)
    .filter(([alias, canonical]) => !alias.includes('.') && fields.includes(canonical))
    .map(([alias]) => alias);
}

const EXAMPLE_STORES = ['spotify', 'apple-music', 'amazon-music', 'youtube-music', 'deezer', 'tiktok'];
const DAY_MS = 24 * 60 * 60 * 1000;

/** `now` only moves the example release date, which stays four weeks ahead (store lead time). */
export function releaseSchema(now: Date = new Date()) {
  const releaseDate = new Date(now.getTime() + 28 * DAY_MS).toISOString().slice(0, 10);
  const year = releaseDate.slice(0, 4);
  const label = 'Harbor Light Records';
  return {
    version: '1.0.0',
    required: structuredClone(REQUIRED),
    optional: structuredClone(OPTIONAL),
    aliases: { ...ALIASES },
    billing: {
      summary:
        `Submission debits ${CREDITS_PER_HUMAN_TRACK} credit per human track and ${CREDITS_PER_AI_TRACK} ` +
        `per AI track (1 credit = 1 USD); token_offset adds ${TOKEN_OFFSET_CREDITS} per release. ` +
        'POST /releases/quote prices a payload without charging.',
      creditsPerHumanTrack: CREDITS_PER_HUMAN_TRACK,
      creditsPerAiTrack: CREDITS_PER_AI_TRACK,
      tokenOffsetCredits: TOKEN_OFFSET_CREDITS,
    },
    example: {
      release: {
        title: 'Lights over the Harbor',
        primary_artist_name: 'Lena Marlow',
        primary_artists: [{ name: 'Lena Marlow' }],
        genre: 'Pop',
        sub_genre: 'Indie Pop',
        release_date: releaseDate,
        label,
        audio_language: 'en',
        metadata_language: 'en',
        language_and_script_code: 'en-Latn',
        distribution_store_ids: EXAMPLE_STORES.map(resolveStoreId).filter((id) => id !== null),
        pline_year: year,
        pline_owner: label,
        cline_year: year,
        cline_owner: label,
        cover_art_file_url: '/api/files/cover-art/<user_id>/cover.png',
        contributors: [{ name: 'Samuel Okafor', role: 'Producer' }],
      },
      tracks: [
        {
          title: 'Lights over the Harbor',
          audio_file_url: '/api/files/audio/<user_id>/track-1.flac',
          explicit_flag: false,
          track_type: 'original',
          language: 'en',
          preview_start_seconds: 30,
          writers: [
            { name: 'Lena Marlow', share_percent: 60 },
            { name: 'Samuel Okafor', share_percent: 40 },
          ],
          contributors: [
            { name: 'Samuel Okafor', role: 'Producer' },
            { name: 'Ines Duarte', role: 'Engineer' },
          ],
        },
        {
          title: 'Slow River (feat. Theo Brandt)',
          audio_file_url: '/api/files/audio/<user_id>/track-2.flac',
          explicit_flag: false,
          track_type: 'original',
          language: 'en',
          writers: [
            { name: 'Lena Marlow', share_percent: 50 },
            { name: 'Theodore Brandt', share_percent: 50 },
          ],
          contributors: [{ name: 'Samuel Okafor', role: 'Producer' }],
        },
      ],
      token_offset: false,
    },
  };
}
