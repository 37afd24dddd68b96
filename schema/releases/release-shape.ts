import { PAYLOAD_LIMITS, TRACK_TYPES } from '../../src/domains/releases/index.ts';
import { enumFromList } from '../enums.ts';
import { type WireField, wireShape } from '../wire-shape.ts';

/**
 * The release and track bodies of the spec as GraphQL types (see wire-shape.ts). Text is bounded by the
 * columns it may reach; the release rules judge everything else (required fields, formats, policies) and
 * report it with the spec's field paths.
 */

const TEXT = PAYLOAD_LIMITS.text;
const URL = PAYLOAD_LIMITS.url;

const text = (wire: string, description?: string): WireField => ({
  wire,
  type: 'String',
  maxLength: TEXT,
  ...(description ? { description } : {}),
});
const url = (wire: string, description?: string): WireField => ({
  wire,
  type: 'String',
  maxLength: URL,
  ...(description ? { description } : {}),
});

export const TrackTypeEnum = enumFromList('TrackType', TRACK_TYPES, {
  description: 'What a track is. A remix is not a kind: it says `Remix` in its title version.',
  valueDescriptions: {
    original: 'Written by the credited writers.',
    cover: 'A recording of a song written by others; credit its writers.',
    public_domain: 'A work in the public domain.',
  },
});

export const PrimaryArtistShape = wireShape(
  { output: 'PrimaryArtist', input: 'PrimaryArtistInput' },
  'A primary artist, with the store profiles to link.',
  () => ({
    name: text('name', 'Required.'),
    dsponeArtistUrl: url('dspone_artist_url'),
    dsptwoArtistUrl: url('dsptwo_artist_url'),
    dspthreeArtistUrl: url('dspthree_artist_url'),
    dspfourArtistUrl: url('dspfour_artist_url'),
  }),
);

export const ContributorShape = wireShape(
  { output: 'Contributor', input: 'ContributorInput' },
  'A contributor credit (producer, engineer, …).',
  () => ({
    name: text('name'),
    role: text('role', 'For example Producer, Engineer, Remixer.'),
    roleId: { wire: 'roleId', type: 'Int' },
    contributorRoleGroupId: { wire: 'contributorRoleGroupId', type: 'Int' },
  }),
);

export const WriterShape = wireShape(
  { output: 'Writer', input: 'WriterInput' },
  'A songwriter credit.',
  () => ({
    name: text('name', 'Full legal name. Required.'),
    society: text('society'),
    ipi: text('ipi'),
    sharePercent: { wire: 'share_percent', type: 'Float', description: 'From 0 to 100.' },
  }),
);

export const LocalizedNameShape = wireShape(
  { output: 'LocalizedName', input: 'LocalsInput' },
  'A name or title in another language or script (artist_locals, title_locals).',
  () => ({
    name: text('name', 'The name in that script (`title` is an alias inside title_locals on the wire).'),
    language: text('language', 'ISO 639-1 code (ko, zh, ja); preferred over languageId.'),
    languageId: { wire: 'languageId', type: 'Int', description: 'Distributor-internal language id.' },
    phoneticName: text('phoneticName', 'Phonetic reading.'),
    languageAndScriptCode: text('language_and_script_code', 'A code from `languageScriptCodes`.'),
  }),
);

const copyright = {
  plineYear: text('pline_year', 'Year of the ℗ credit.'),
  plineOwner: text('pline_owner', 'Owner of the ℗ credit.'),
  clineYear: text('cline_year', 'Year of the © credit.'),
  clineOwner: text('cline_owner', 'Owner of the © credit.'),
};

const localization = {
  artistLocals: { wire: 'artist_locals', type: LocalizedNameShape, list: true },
  titleLocals: {
    wire: 'title_locals',
    type: LocalizedNameShape,
    list: true,
    description: 'The title in other scripts.',
  },
  languageAndScriptCode: text(
    'language_and_script_code',
    'Writing system of the metadata sent; codes from `languageScriptCodes`.',
  ),
} satisfies Record<string, WireField>;

export const ReleaseShape = wireShape(
  { output: 'ReleaseMetadata', input: 'ReleaseInput' },
  'The release object of a submission or draft.',
  () => ({
    title: text('title', 'Required.'),
    titleVersion: text('title_version', 'Version qualifier (never the bare word Cover).'),
    primaryArtistName: text(
      'primary_artist_name',
      'Required; equals primaryArtists[0].name when both are sent.',
    ),
    primaryArtists: {
      wire: 'primary_artists',
      type: PrimaryArtistShape,
      list: true,
      description: 'Every primary artist in credit order; the first is the main one.',
    },
    dsponeArtistUrls: {
      wire: 'dspone_artist_urls',
      type: 'String',
      list: true,
      nullableItems: true,
      maxLength: URL,
      description: 'Profile link per primary artist, by position; null holds a place.',
    },
    dsptwoArtistUrls: {
      wire: 'dsptwo_artist_urls',
      type: 'String',
      list: true,
      nullableItems: true,
      maxLength: URL,
      description: 'Profile link per primary artist, by position; null holds a place.',
    },
    dsponeArtistUrl: url(
      'dspone_artist_url',
      'Profile link (or bare id, or URI) of the main primary artist.',
    ),
    dsptwoArtistUrl: url('dsptwo_artist_url', 'Profile URL of the main primary artist.'),
    genre: text('genre', 'Required.'),
    subGenre: text('sub_genre', 'The second genre (`second_genre` is an alias on the wire).'),
    releaseDate: text('release_date', 'YYYY-MM-DD. Required.'),
    label: text('label', 'Record label name.'),
    audioLanguage: text('audio_language', 'Language code such as en.'),
    metadataLanguage: text('metadata_language', 'Language code.'),
    metadataLanguageCountry: text('metadata_language_country'),
    distributionStoreIds: {
      wire: 'distribution_store_ids',
      type: 'StoreKey',
      list: true,
      description: 'The stores to deliver to; null or omitted: every default store; never empty.',
    },
    ...copyright,
    coverArtFileUrl: url('cover_art_file_url', 'A fileUrl from an upload or cover-art call. Required.'),
    contributors: { wire: 'contributors', type: ContributorShape, list: true },
    ...localization,
    upc: text('upc', 'The release UPC, when you have one (12 or 13 digits, as a string).'),
  }),
);

export const TrackShape = wireShape(
  { output: 'TrackMetadata', input: 'TrackInput' },
  'One track of a submission or draft.',
  () => ({
    title: text('title', 'Required.'),
    titleVersion: text('title_version', 'Remix for remixes; never the bare word Cover.'),
    primaryArtistName: text('primary_artist_name', "When it differs from the release's."),
    primaryArtists: {
      wire: 'primary_artists',
      type: PrimaryArtistShape,
      list: true,
      description: 'When they differ from the release.',
    },
    audioFileUrl: url(
      'audio_file_url',
      'A fileUrl from an upload. Required (`audioFileUrl`, `audio_file`, `audio_url` are aliases on the wire).',
    ),
    explicitFlag: { wire: 'explicit_flag', type: 'Boolean', description: 'Required.' },
    trackType: {
      wire: 'track_type',
      type: { enum: TrackTypeEnum, values: TRACK_TYPES },
      description: 'Default original.',
    },
    isrc: text('isrc', 'A valid ISRC, when you have one.'),
    genre: text('genre'),
    language: text('language'),
    lyrics: { wire: 'lyrics', type: 'String', maxLength: PAYLOAD_LIMITS.lyrics, description: 'Plain text.' },
    previewStartSeconds: {
      wire: 'preview_start_seconds',
      type: 'Int',
      description: 'Where the preview clip starts, in seconds (>= 0, default 15).',
    },
    ...copyright,
    writers: { wire: 'writers', type: WriterShape, list: true, description: 'Required: at least one.' },
    contributors: { wire: 'contributors', type: ContributorShape, list: true },
    ...localization,
    containsAi: {
      wire: 'contains_ai',
      type: 'Boolean',
      description: 'Declares AI-generated audio (billed as an AI track whatever the value).',
    },
    aiGenerationCredits: text(
      'ai_generation_credits',
      'The AI tools credited; sending it marks the track as AI for billing.',
    ),
  }),
);
