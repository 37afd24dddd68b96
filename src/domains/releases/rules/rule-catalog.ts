/**
 * What the metadata rules engine checks. The engine implements these ids and /metadata-rules is rendered
 * from this list, so the published document and the checks cannot drift apart.
 */
export const RULE_SEVERITIES = ['error', 'warning'] as const;
export type RuleSeverity = (typeof RULE_SEVERITIES)[number];

export const RULE_TOPICS = [
  'identifiers',
  'titles',
  'artists',
  'credits',
  'ai_disclosure',
  'cover_songs',
  'assets',
  'dates',
  'stores',
  'localization',
  'fields',
] as const;
export type RuleTopic = (typeof RULE_TOPICS)[number];

export interface RuleDescriptor {
  id: string;
  severity: RuleSeverity;
  topic: RuleTopic;
  title: string;
  description: string;
  fieldPaths: string[];
  example?: { bad: string; good: string };
}

/** Headings in /metadata-rules order; the spec's policy topics appear by name. */
export const TOPIC_TITLES: Record<RuleTopic, string> = {
  artists: 'Artist-name policy',
  titles: 'Title casing and title format',
  credits: 'Writers, credits and explicit flag',
  identifiers: 'Identifiers: ISRC, UPC and artist profile links',
  ai_disclosure: 'AI disclosure',
  cover_songs: 'Cover songs and track type',
  assets: 'Tracks, cover art and audio',
  dates: 'Release date and genre',
  stores: 'Store selection',
  localization: 'Languages, scripts and localized metadata',
  fields: 'Field names',
};

const RELEASE_TITLES = ['release.title', 'release.title_version'];
const TRACK_TITLES = ['tracks[].title', 'tracks[].title_version'];
const ALL_TITLES = [...RELEASE_TITLES, ...TRACK_TITLES];
const ARTIST_NAMES = [
  'release.primary_artist_name',
  'release.primary_artists[].name',
  'tracks[].primary_artist_name',
  'tracks[].primary_artists[].name',
];
const ARTIST_LINKS = [
  'release.dspone_artist_url',
  'release.dsptwo_artist_url',
  'release.dspone_artist_urls[]',
  'release.dsptwo_artist_urls[]',
  'release.primary_artists[].dspone_artist_url',
  'release.primary_artists[].dsptwo_artist_url',
  'tracks[].primary_artists[].dspone_artist_url',
  'tracks[].primary_artists[].dsptwo_artist_url',
];
const LOCALS = [
  'release.title_locals[]',
  'release.artist_locals[]',
  'tracks[].title_locals[]',
  'tracks[].artist_locals[]',
];
const SCRIPT_CODES = [
  'release.language_and_script_code',
  'tracks[].language_and_script_code',
  ...LOCALS.map((path) => `${path}.language_and_script_code`),
];

const REQUIRED_RULES: RuleDescriptor[] = [
  {
    id: 'required.release-title',
    severity: 'error',
    topic: 'titles',
    title: 'Release title is required',
    description: 'Every release has a non-blank title.',
    fieldPaths: ['release.title'],
  },
  {
    id: 'required.track-title',
    severity: 'error',
    topic: 'titles',
    title: 'Track title is required',
    description: 'Every track has a non-blank title.',
    fieldPaths: ['tracks[].title'],
  },
  {
    id: 'required.primary-artist',
    severity: 'error',
    topic: 'artists',
    title: 'Primary artist is required',
    description: 'The release names its main primary artist in primary_artist_name.',
    fieldPaths: ['release.primary_artist_name'],
  },
  {
    id: 'required.primary-artist-entry-name',
    severity: 'error',
    topic: 'artists',
    title: 'Every primary artist entry has a name',
    description: 'Each entry of primary_artists carries a non-blank name.',
    fieldPaths: ['release.primary_artists[].name', 'tracks[].primary_artists[].name'],
  },
  {
    id: 'required.genre',
    severity: 'error',
    topic: 'dates',
    title: 'Genre is required',
    description: 'The release has a primary genre; sub_genre (alias second_genre) is optional.',
    fieldPaths: ['release.genre'],
  },
  {
    id: 'required.release-date',
    severity: 'error',
    topic: 'dates',
    title: 'Release date is required',
    description: 'The release has a release_date.',
    fieldPaths: ['release.release_date'],
  },
  {
    id: 'required.cover-art',
    severity: 'error',
    topic: 'assets',
    title: 'Cover art is required',
    description: 'The release has a cover_art_file_url from an upload or cover-art call.',
    fieldPaths: ['release.cover_art_file_url'],
  },
  {
    id: 'required.tracks',
    severity: 'error',
    topic: 'assets',
    title: 'At least one track',
    description: 'A release carries a non-empty tracks array.',
    fieldPaths: ['tracks'],
  },
  {
    id: 'required.audio',
    severity: 'error',
    topic: 'assets',
    title: 'Every track has audio',
    description:
      'Each track has an audio_file_url from an upload (audioFileUrl, audio_file and audio_url are aliases).',
    fieldPaths: ['tracks[].audio_file_url'],
  },
  {
    id: 'required.explicit-flag',
    severity: 'error',
    topic: 'credits',
    title: 'Explicit flag is required per track',
    description:
      'Each track sends explicit_flag as a boolean; it is never inferred from the title or lyrics.',
    fieldPaths: ['tracks[].explicit_flag'],
  },
  {
    id: 'required.writers',
    severity: 'error',
    topic: 'credits',
    title: 'Every track has a writer',
    description: 'Each track lists at least one writer in writers.',
    fieldPaths: ['tracks[].writers'],
  },
  {
    id: 'required.writer-name',
    severity: 'error',
    topic: 'credits',
    title: 'Every writer has a name',
    description: 'Each writers entry carries a non-blank name.',
    fieldPaths: ['tracks[].writers[].name'],
  },
];

const IDENTIFIER_RULES: RuleDescriptor[] = [
  {
    id: 'isrc.format',
    severity: 'error',
    topic: 'identifiers',
    title: 'ISRC is well formed',
    description:
      'An ISRC prefix, hyphens and spaces are stripped and letters uppercased; the result must match ' +
      '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$ (ISRCs have no check digit).',
    fieldPaths: ['tracks[].isrc'],
    example: { bad: 'US-AB1-24-0001', good: 'USAB12400001' },
  },
  {
    id: 'isrc.unique-in-release',
    severity: 'error',
    topic: 'identifiers',
    title: 'ISRC is unique within the release',
    description: 'Two tracks of one release never share an ISRC.',
    fieldPaths: ['tracks[].isrc'],
  },
  {
    id: 'isrc.unique-in-catalog',
    severity: 'error',
    topic: 'identifiers',
    title: 'ISRC is not reused by another recording',
    description: 'An ISRC already assigned to a different recording in the catalog is rejected.',
    fieldPaths: ['tracks[].isrc'],
  },
  {
    id: 'upc.format',
    severity: 'error',
    topic: 'identifiers',
    title: 'UPC/EAN has 12 or 13 digits',
    description: 'A UPC is 12 digits and an EAN 13 digits, with nothing else.',
    fieldPaths: ['release.upc'],
    example: { bad: '03600029145', good: '036000291452' },
  },
  {
    id: 'upc.check-digit',
    severity: 'error',
    topic: 'identifiers',
    title: 'UPC/EAN check digit is valid',
    description: 'The last digit is the GS1 mod-10 check digit of the others.',
    fieldPaths: ['release.upc'],
    example: { bad: '036000291453', good: '036000291452' },
  },
  {
    id: 'upc.unique-in-catalog',
    severity: 'error',
    topic: 'identifiers',
    title: 'UPC/EAN is unique in the catalog',
    description: 'A UPC already assigned to another release is rejected.',
    fieldPaths: ['release.upc'],
  },
  {
    id: 'link.artist-profile-only',
    severity: 'error',
    topic: 'identifiers',
    title: 'Artist links point to an artist profile',
    description:
      'dspone takes a profile URL, a bare artist id or a <dspone>:artist:<id> URI; dsptwo takes a profile ' +
      'URL (see link.dsptwo-profile-form). Album, track, song and playlist links, in any artist link field, ' +
      'are rejected with 422 naming the field.',
    fieldPaths: [
      ...ARTIST_LINKS,
      'release.primary_artists[].dspthree_artist_url',
      'release.primary_artists[].dspfour_artist_url',
      'tracks[].primary_artists[].dspthree_artist_url',
      'tracks[].primary_artists[].dspfour_artist_url',
    ],
    example: {
      bad: 'https://open.dspone.example/album/4aawyAB9vmqN3uQ7FjRGTy',
      good: 'https://open.dspone.example/artist/0OdUWJ0sBjDrqHygGUXeCF',
    },
  },
  {
    id: 'link.dsptwo-profile-form',
    severity: 'error',
    topic: 'identifiers',
    title: 'dsptwo links use the profile URL form',
    description: 'A dsptwo artist link has the form https://<host>/<storefront>/artist/<slug>/<id>.',
    fieldPaths: ARTIST_LINKS.filter((path) => path.includes('dsptwo')),
    example: {
      bad: 'https://music.dsptwo.example/artist/jane-doe/1440833098',
      good: 'https://music.dsptwo.example/us/artist/jane-doe/1440833098',
    },
  },
];

const TITLE_RULES: RuleDescriptor[] = [
  {
    id: 'title.not-all-caps',
    severity: 'warning',
    topic: 'titles',
    title: 'Title is not all caps',
    description: 'A title written entirely in capitals is reported with a title-cased suggestion.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'NIGHT DRIVE', good: 'Night Drive' },
  },
  {
    id: 'title.not-all-lowercase',
    severity: 'warning',
    topic: 'titles',
    title: 'Title is not all lowercase',
    description: 'A title written entirely in lowercase is reported with a title-cased suggestion.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'night drive', good: 'Night Drive' },
  },
  {
    id: 'title.english-title-case',
    severity: 'warning',
    topic: 'titles',
    title: 'English titles use title case',
    description:
      'Words are capitalized except articles, short conjunctions and prepositions of up to four letters, ' +
      'which are lowercase unless first or last word. Applies when the metadata language is English.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'Walking In The Rain', good: 'Walking in the Rain' },
  },
  {
    id: 'title.feat-format',
    severity: 'error',
    topic: 'titles',
    title: 'Featured artists use (feat. X)',
    description:
      'Featured artists appear only as (feat. X), (feat. A & B) or (feat. A, B & C); ft., feat without ' +
      'the dot, featuring and w/ are rejected with the corrected title as suggestion.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'Night Drive ft. Jane Doe', good: 'Night Drive (feat. Jane Doe)' },
  },
  {
    id: 'title.no-artist-name',
    severity: 'error',
    topic: 'titles',
    title: 'No artist name in the title',
    description: 'A title never repeats the artist in the form "Artist - Track".',
    fieldPaths: ALL_TITLES,
    example: { bad: 'John Smith - Night Drive', good: 'Night Drive' },
  },
  {
    id: 'title.no-explicit-clean',
    severity: 'error',
    topic: 'titles',
    title: 'No Clean or Explicit in titles',
    description: 'Clean and Explicit markers are not part of a title; set explicit_flag instead.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'Night Drive (Explicit)', good: 'Night Drive' },
  },
  {
    id: 'title.no-standard-version-label',
    severity: 'warning',
    topic: 'titles',
    title: 'No version label on the standard version',
    description: 'The standard version carries no Original Mix or Album Version qualifier.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'Night Drive (Album Version)', good: 'Night Drive' },
  },
  {
    id: 'title.no-marketing-words',
    severity: 'error',
    topic: 'titles',
    title: 'No marketing words in titles',
    description: 'Exclusive, Official, Limited Edition, HD and similar promotional words are rejected.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'Night Drive (Official Exclusive)', good: 'Night Drive' },
  },
  {
    id: 'title.no-emoji',
    severity: 'error',
    topic: 'titles',
    title: 'No emoji in titles',
    description: 'Titles contain no emoji or pictographic symbols.',
    fieldPaths: ALL_TITLES,
  },
  {
    id: 'title.no-url-handle-hashtag',
    severity: 'error',
    topic: 'titles',
    title: 'No URLs, @handles or hashtags in titles',
    description: 'Titles contain no web addresses, @handles or #hashtags.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'Night Drive #summer', good: 'Night Drive' },
  },
  {
    id: 'title.no-self-censoring',
    severity: 'error',
    topic: 'titles',
    title: 'No asterisk self-censoring',
    description:
      'Words are spelled out; mark the track with explicit_flag instead of masking letters with *.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'F**k It', good: 'Fuck It' },
  },
  {
    id: 'title.version-in-title-version',
    severity: 'warning',
    topic: 'titles',
    title: 'Version text belongs in title_version',
    description:
      'A version qualifier in the title (Live, Acoustic, Radio Edit, Instrumental, Remastered...) is ' +
      'reported with a suggestion to move it to title_version.',
    fieldPaths: ['release.title', 'tracks[].title'],
    example: {
      bad: 'title: "Night Drive (Acoustic)"',
      good: 'title: "Night Drive", title_version: "Acoustic"',
    },
  },
  {
    id: 'title-version.remix',
    severity: 'error',
    topic: 'titles',
    title: 'Remixes say Remix in title_version',
    description:
      'A remix is marked with the word Remix in title_version (e.g. Remix, Jane Doe Remix), not in the ' +
      'title and not abbreviated (Rmx).',
    fieldPaths: ['tracks[].title', 'tracks[].title_version'],
    example: {
      bad: 'title: "Night Drive (Jane Doe Rmx)"',
      good: 'title: "Night Drive", title_version: "Jane Doe Remix"',
    },
  },
  {
    id: 'title-version.remixer-credit',
    severity: 'warning',
    topic: 'titles',
    title: 'Remixes credit a Remixer',
    description: 'A track whose title_version says Remix should list a contributor with role Remixer.',
    fieldPaths: ['tracks[].contributors'],
  },
  {
    id: 'title.no-placeholder',
    severity: 'error',
    topic: 'titles',
    title: 'No placeholder titles',
    description: 'Placeholder titles such as Track 1, Untitled or New Song are rejected.',
    fieldPaths: ['release.title', 'tracks[].title'],
    example: { bad: 'Track 1', good: 'Night Drive' },
  },
  {
    id: 'title.unique-tracks',
    severity: 'error',
    topic: 'titles',
    title: 'Track titles are unique within a release',
    description: 'Two tracks of a release share a title only when their title_version differs.',
    fieldPaths: TRACK_TITLES,
  },
  {
    id: 'title.single-matches-track',
    severity: 'error',
    topic: 'titles',
    title: 'A single has the title of its track',
    description: 'A one-track release has the same title and title_version as its track.',
    fieldPaths: ['release.title', 'release.title_version'],
    example: {
      bad: 'release "Night Drive - Single", track "Night Drive"',
      good: 'release "Night Drive", track "Night Drive"',
    },
  },
  {
    id: 'title.vol-part-format',
    severity: 'warning',
    topic: 'titles',
    title: 'Vol. and Pt. are abbreviated after a comma',
    description: 'Volumes and parts are written ", Vol. N" and ", Pt. N"; a suggestion is given.',
    fieldPaths: ALL_TITLES,
    example: { bad: 'Summer Hits Volume 2', good: 'Summer Hits, Vol. 2' },
  },
];

const ARTIST_RULES: RuleDescriptor[] = [
  {
    id: 'artist.generic-name',
    severity: 'error',
    topic: 'artists',
    title: 'No generic or search-bait artist names',
    description:
      'Names such as White Noise, Sleep Music, Relaxing Music, Yoga, Workout, Meditation, Baby, Christmas, ' +
      'Top Hits, Chorus, Orchestra, Singer, Unknown or Artist are rejected.',
    fieldPaths: ARTIST_NAMES,
    example: { bad: 'Relaxing Music', good: 'Jane Doe' },
  },
  {
    id: 'artist.one-per-field',
    severity: 'warning',
    topic: 'artists',
    title: 'One artist per field',
    description:
      'Names like A & B, A x B, A, B or A feat. B are reported (official duo names exist); list ' +
      'co-primary artists as separate primary_artists entries.',
    fieldPaths: ARTIST_NAMES,
    example: {
      bad: 'primary_artist_name: "Jane Doe & John Roe"',
      good: 'primary_artists: [{ "name": "Jane Doe" }, { "name": "John Roe" }]',
    },
  },
  {
    id: 'artist.no-extra-info',
    severity: 'error',
    topic: 'artists',
    title: 'No extra information in artist names',
    description: 'Artist names carry no roles, instruments, dates, "Official" or URLs.',
    fieldPaths: ARTIST_NAMES,
    example: { bad: 'Jane Doe (Official)', good: 'Jane Doe' },
  },
  {
    id: 'artist.various-artists-release-only',
    severity: 'error',
    topic: 'artists',
    title: 'Various Artists only at release level with four or more artists',
    description:
      'Various Artists is allowed only as the release artist of a compilation with four or more primary ' +
      'artists, and never on a track.',
    fieldPaths: ARTIST_NAMES,
  },
  {
    id: 'artist.no-va-abbreviation',
    severity: 'error',
    topic: 'artists',
    title: 'Various Artists is spelled out',
    description: 'VA and V/A are rejected; write Various Artists.',
    fieldPaths: ARTIST_NAMES,
    example: { bad: 'V/A', good: 'Various Artists' },
  },
  {
    id: 'artist.primary-name-matches-list',
    severity: 'error',
    topic: 'artists',
    title: 'primary_artist_name equals the first primary artist',
    description: 'When both are sent, primary_artist_name equals primary_artists[0].name.',
    fieldPaths: ['release.primary_artist_name', 'tracks[].primary_artist_name'],
  },
  {
    id: 'artist.link-arrays-length',
    severity: 'error',
    topic: 'artists',
    title: 'Positional link arrays fit the artist list',
    description:
      'dspone_artist_urls and dsptwo_artist_urls hold one entry per primary artist (null keeps a position) ' +
      'and are never longer than primary_artists.',
    fieldPaths: ['release.dspone_artist_urls', 'release.dsptwo_artist_urls'],
  },
];

const CREDIT_RULES: RuleDescriptor[] = [
  {
    id: 'writers.full-legal-name',
    severity: 'error',
    topic: 'credits',
    title: 'Writers use full legal names',
    description: 'A writer name has at least a first and a last name; stage names and initials are rejected.',
    fieldPaths: ['tracks[].writers[].name'],
    example: { bad: 'J. Doe', good: 'Jane Doe' },
  },
  {
    id: 'writers.share-range',
    severity: 'error',
    topic: 'credits',
    title: 'Writer shares are between 0 and 100',
    description: 'A share_percent, when given, is a number from 0 to 100.',
    fieldPaths: ['tracks[].writers[].share_percent'],
  },
  {
    id: 'writers.share-total',
    severity: 'error',
    topic: 'credits',
    title: 'Writer shares add up to 100',
    description: 'When shares are given, they add up to 100 per track.',
    fieldPaths: ['tracks[].writers[].share_percent'],
    example: { bad: '60 + 30', good: '60 + 40' },
  },
];

const AI_RULES: RuleDescriptor[] = [
  {
    id: 'ai.disclosure-billing',
    severity: 'warning',
    topic: 'ai_disclosure',
    title: 'AI disclosure fields mark the track as AI',
    description:
      'Sending contains_ai, containsAi or ai_generation_credits on a track bills it as AI (2 credits ' +
      'instead of 1) whatever the value; a false or empty value is reported. Omit them for a human track.',
    fieldPaths: ['tracks[].contains_ai', 'tracks[].containsAi', 'tracks[].ai_generation_credits'],
  },
  {
    id: 'ai.detector-mismatch',
    severity: 'warning',
    topic: 'ai_disclosure',
    title: 'Detector finds AI in a track declared human',
    description:
      'When the AI detector says a track declared human contains AI, a warning is reported and billing ' +
      'follows the detector.',
    fieldPaths: ['tracks[].audio_file_url'],
  },
];

const COVER_RULES: RuleDescriptor[] = [
  {
    id: 'title-version.no-bare-cover',
    severity: 'error',
    topic: 'cover_songs',
    title: 'title_version is never the bare word Cover',
    description:
      'Covers are marked by track_type cover; a title_version naming a kind of cover (e.g. Acoustic Cover) ' +
      'is allowed, the bare word Cover is not.',
    fieldPaths: ['release.title_version', 'tracks[].title_version'],
    example: { bad: 'title_version: "Cover"', good: 'track_type: "cover", title_version: "Acoustic Cover"' },
  },
  {
    id: 'track-type.allowed-values',
    severity: 'error',
    topic: 'cover_songs',
    title: 'track_type is original, cover or public_domain',
    description: 'Any other track_type value is rejected.',
    fieldPaths: ['tracks[].track_type'],
  },
  {
    id: 'track-type.no-remix',
    severity: 'error',
    topic: 'cover_songs',
    title: 'track_type is never remix',
    description: 'A remix keeps track_type original (or cover) and says Remix in title_version.',
    fieldPaths: ['tracks[].track_type'],
    example: { bad: 'track_type: "remix"', good: 'track_type: "original", title_version: "Remix"' },
  },
  {
    id: 'cover.credit-original-writers',
    severity: 'warning',
    topic: 'cover_songs',
    title: 'Covers credit the original writers',
    description:
      'A cover lists the writers of the original song; a cover whose only writer is its performing artist ' +
      'is reported.',
    fieldPaths: ['tracks[].writers'],
  },
  {
    id: 'cover.public-domain-declared',
    severity: 'warning',
    topic: 'cover_songs',
    title: 'Public-domain works say so',
    description: 'A track credited to Traditional or Public Domain writers uses track_type public_domain.',
    fieldPaths: ['tracks[].track_type', 'tracks[].writers[].name'],
  },
  {
    id: 'cover.registry-match-ownership',
    severity: 'warning',
    topic: 'cover_songs',
    title: 'Registry match on an original track',
    description:
      'A registry match above the threshold on a track_type original track is reported, asking to confirm ' +
      'ownership or mark the track as a cover.',
    fieldPaths: ['tracks[].track_type', 'tracks[].audio_file_url'],
  },
];

const ASSET_RULES: RuleDescriptor[] = [
  {
    id: 'cover-art.owned-file',
    severity: 'error',
    topic: 'assets',
    title: 'Cover art is a file of the caller in the cover-art store',
    description: 'cover_art_file_url has the form /api/files/cover-art/<user_id>/<name> with the caller id.',
    fieldPaths: ['release.cover_art_file_url'],
  },
  {
    id: 'cover-art.upscaled',
    severity: 'warning',
    topic: 'assets',
    title: 'Small cover art is upscaled',
    description: 'Cover art is stored as a 3000x3000 PNG; a smaller source is upscaled and reported.',
    fieldPaths: ['release.cover_art_file_url'],
  },
  {
    id: 'audio.owned-file',
    severity: 'error',
    topic: 'assets',
    title: 'Audio is a file of the caller in the audio store',
    description: 'audio_file_url has the form /api/files/audio/<user_id>/<name> with the caller id.',
    fieldPaths: ['tracks[].audio_file_url'],
  },
  {
    id: 'audio.decodable',
    severity: 'error',
    topic: 'assets',
    title: 'Audio can be decoded',
    description: 'An audio file that cannot be decoded is rejected.',
    fieldPaths: ['tracks[].audio_file_url'],
  },
  {
    id: 'audio.lossless',
    severity: 'warning',
    topic: 'assets',
    title: 'Audio is lossless',
    description: 'WAV or FLAC at 16 or 24 bits and 44.1 kHz or more is lossless; anything else is reported.',
    fieldPaths: ['tracks[].audio_file_url'],
  },
  {
    id: 'track.preview-start',
    severity: 'error',
    topic: 'assets',
    title: 'Preview start is a whole number of seconds',
    description: 'preview_start_seconds is an integer >= 0 (default 15).',
    fieldPaths: ['tracks[].preview_start_seconds'],
  },
];

const DATE_RULES: RuleDescriptor[] = [
  {
    id: 'release-date.format',
    severity: 'error',
    topic: 'dates',
    title: 'Release date is a valid YYYY-MM-DD date',
    description: 'release_date is a calendar date written YYYY-MM-DD.',
    fieldPaths: ['release.release_date'],
    example: { bad: '2025-02-30', good: '2025-02-28' },
  },
  {
    id: 'release-date.lead-time',
    severity: 'warning',
    topic: 'dates',
    title: 'Release date leaves 7 days of lead time',
    description:
      'A release date less than 7 days ahead leaves stores no editorial lead time and is reported.',
    fieldPaths: ['release.release_date'],
  },
];

const STORE_RULES: RuleDescriptor[] = [
  {
    id: 'stores.non-empty-selection',
    severity: 'error',
    topic: 'stores',
    title: 'Store selection is never an empty array',
    description: 'distribution_store_ids is null for all supported stores, or lists at least one store.',
    fieldPaths: ['release.distribution_store_ids'],
    example: { bad: 'distribution_store_ids: []', good: 'distribution_store_ids: null' },
  },
  {
    id: 'stores.known-store',
    severity: 'error',
    topic: 'stores',
    title: 'Selected stores exist',
    description: 'Each entry is a storeId or alias from GET /distribution-stores.',
    fieldPaths: ['release.distribution_store_ids[]'],
  },
  {
    id: 'stores.explicit-selection',
    severity: 'warning',
    topic: 'stores',
    title: 'Store selection is explicit',
    description:
      'An omitted distribution_store_ids sends the release to all supported stores (legacy default); ' +
      'send null or a list to make the choice explicit.',
    fieldPaths: ['release.distribution_store_ids'],
  },
  {
    id: 'stores.partner-approval',
    severity: 'warning',
    topic: 'stores',
    title: 'Content-match store needs partner approval',
    description:
      'A selected store that requires partner approval (307) is skipped with a reason until the account ' +
      'is approved.',
    fieldPaths: ['release.distribution_store_ids[]'],
  },
];

const LOCALIZATION_RULES: RuleDescriptor[] = [
  {
    id: 'language.iso-639-1',
    severity: 'error',
    topic: 'localization',
    title: 'Language codes are ISO 639-1',
    description: 'Language fields hold a two-letter ISO 639-1 code.',
    fieldPaths: [
      'release.audio_language',
      'release.metadata_language',
      'tracks[].language',
      ...LOCALS.map((path) => `${path}.language`),
    ],
    example: { bad: 'eng', good: 'en' },
  },
  {
    id: 'script-code.language-match',
    severity: 'error',
    topic: 'localization',
    title: 'Script code names the language of its field',
    description:
      'A language_and_script_code pairs with the language of the field it sits on (GET ' +
      '/language-script-codes); a mismatch is rejected with 422.',
    fieldPaths: SCRIPT_CODES,
    example: {
      bad: 'metadata_language: "ko", language_and_script_code: "ja-Jpan"',
      good: 'metadata_language: "ko", language_and_script_code: "ko-Kore"',
    },
  },
  {
    id: 'script-code.unconfirmed-dropped',
    severity: 'warning',
    topic: 'localization',
    title: 'Unconfirmed script codes are dropped',
    description: 'A script code that cannot be confirmed is dropped at submission instead of failing it.',
    fieldPaths: SCRIPT_CODES,
  },
  {
    id: 'locals.language-required',
    severity: 'error',
    topic: 'localization',
    title: 'Localized entries name their language',
    description: 'Each title_locals or artist_locals entry has language (preferred) or languageId.',
    fieldPaths: LOCALS.map((path) => `${path}.language`),
  },
  {
    id: 'locals.one-per-language',
    severity: 'warning',
    topic: 'localization',
    title: 'One localized entry per language',
    description: 'Extra title_locals or artist_locals entries for a language already present are ignored.',
    fieldPaths: LOCALS,
  },
  {
    id: 'locals.no-title-version',
    severity: 'warning',
    topic: 'localization',
    title: 'Localized title versions are not delivered',
    description: 'A version in a title_locals entry is ignored; only the localized title is delivered.',
    fieldPaths: ['release.title_locals[]', 'tracks[].title_locals[]'],
  },
];

const FIELD_RULES: RuleDescriptor[] = [
  {
    id: 'fields.unknown',
    severity: 'warning',
    topic: 'fields',
    title: 'Unknown fields are ignored',
    description:
      'A release or track field that is neither a field of the release schema nor an accepted alias is not stored; the warning names the closest known field.',
    fieldPaths: ['release', 'tracks[]'],
    example: { bad: '"explicit": true', good: '"explicit_flag": true' },
  },
  {
    id: 'genre.not-in-catalogue',
    severity: 'warning',
    topic: 'dates',
    title: 'Genre from the catalogue',
    description:
      "A genre outside the stores' genre list may be re-filed by the store; the warning names the closest genre of the catalogue (case does not matter).",
    fieldPaths: ['release.genre', 'tracks[].genre'],
    example: { bad: '"genre": "Hiphop"', good: '"genre": "Hip-Hop/Rap"' },
  },
];

export const RULES: readonly RuleDescriptor[] = [
  ...REQUIRED_RULES,
  ...ARTIST_RULES,
  ...TITLE_RULES,
  ...CREDIT_RULES,
  ...IDENTIFIER_RULES,
  ...AI_RULES,
  ...COVER_RULES,
  ...ASSET_RULES,
  ...DATE_RULES,
  ...STORE_RULES,
  ...LOCALIZATION_RULES,
  ...FIELD_RULES,
];

const RULES_BY_ID = new Map(RULES.map((rule) => [rule.id, rule]));

export function findRule(id: string): RuleDescriptor | undefined {
  return RULES_BY_ID.get(id);
}
