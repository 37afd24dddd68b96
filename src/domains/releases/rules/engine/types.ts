import type { RuleSeverity } from '../rule-catalog.ts';

/** One finding of the rules engine, in the caller's terms. */
export interface RuleIssue {
  /** A rule id from RULES (rule-catalog.ts). */
  rule: string;
  severity: RuleSeverity;
  /** Field path in the spec's form: `release.title`, `tracks[0].writers[1].name`. */
  path: string;
  message: string;
  /** A corrected value, when the fix is obvious (e.g. a title-cased title). */
  suggestion?: string;
}

/** A locals entry (artist_locals / title_locals). */
export interface LocalsEntry {
  name?: string;
  language?: string;
  languageId?: number;
  phoneticName?: string;
  language_and_script_code?: string;
}

export interface PrimaryArtistInput {
  name?: string;
  dspone_artist_url?: string;
  dsptwo_artist_url?: string;
  dspthree_artist_url?: string;
  dspfour_artist_url?: string;
}

export interface ContributorInput {
  name?: string;
  role?: string;
  roleId?: number;
  contributorRoleGroupId?: number;
}

export interface WriterInput {
  name?: string;
  society?: string;
  ipi?: string;
  share_percent?: number;
}

/** ReleaseInput after aliases were applied (snake_case canonical names); unknown values kept as sent. */
export interface ReleaseInput {
  title?: string;
  title_version?: string;
  primary_artist_name?: string;
  primary_artists?: PrimaryArtistInput[];
  dspone_artist_urls?: (string | null)[];
  dsptwo_artist_urls?: (string | null)[];
  dspone_artist_url?: string;
  dsptwo_artist_url?: string;
  genre?: string;
  sub_genre?: string;
  release_date?: string;
  label?: string;
  audio_language?: string;
  metadata_language?: string;
  metadata_language_country?: string;
  /** Omitted (undefined) and null both mean all supported stores; [] is an error. Entries may be aliases. */
  distribution_store_ids?: (number | string)[] | null;
  pline_year?: string;
  pline_owner?: string;
  cline_year?: string;
  cline_owner?: string;
  cover_art_file_url?: string;
  contributors?: ContributorInput[];
  artist_locals?: LocalsEntry[];
  title_locals?: LocalsEntry[];
  language_and_script_code?: string;
  upc?: string;
}

export interface TrackInput {
  title?: string;
  title_version?: string;
  primary_artist_name?: string;
  primary_artists?: PrimaryArtistInput[];
  audio_file_url?: string;
  explicit_flag?: boolean;
  track_type?: string;
  isrc?: string;
  genre?: string;
  language?: string;
  lyrics?: string;
  preview_start_seconds?: number;
  pline_year?: string;
  pline_owner?: string;
  cline_year?: string;
  cline_owner?: string;
  writers?: WriterInput[];
  contributors?: ContributorInput[];
  artist_locals?: LocalsEntry[];
  title_locals?: LocalsEntry[];
  language_and_script_code?: string;
  contains_ai?: unknown;
  ai_generation_credits?: unknown;
}

/** A submission or draft payload after alias resolution. */
export interface NormalisedSubmission {
  release: ReleaseInput;
  tracks: TrackInput[];
  /** True when the payload carried `distribution_store_ids` at all (null counts as carried). */
  storeSelectionSent: boolean;
}

/** Lookups the engine needs from the rest of the platform; the caller binds them to the account. */
export interface RuleContext {
  now: Date;
  /** Whether `fileUrl` is a file of the caller in `store`. */
  ownsFile(fileUrl: string, store: 'cover-art' | 'audio'): Promise<boolean>;
  /** Warning codes and facts recorded for a stored file of the caller (null when not the caller's). */
  fileFacts(fileUrl: string): Promise<{ warnings: string[]; lossless: boolean | null } | null>;
  /** Whether an ISRC / UPC is already used by another release in the catalog. */
  isrcInUse(isrc: string): Promise<boolean>;
  upcInUse(upc: string): Promise<boolean>;
  /** A cached AI-detection verdict for an audio file, or null when none is cached. */
  aiDetection(fileUrl: string): Promise<{ containsAi: boolean } | null>;
  /** A cached registry-match (ACR) result above threshold for an audio file, or null. */
  registryMatch(fileUrl: string): Promise<{ matched: boolean } | null>;
}
