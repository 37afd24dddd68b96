import { isObj, type Obj } from './issues.ts';
import type { NormalisedSubmission, ReleaseInput, TrackInput } from './types.ts';

/** Alias -> canonical field name, in precedence order (the first alias sent wins over later ones). */
const RELEASE_ALIASES: readonly (readonly [string, string])[] = [
  ['second_genre', 'sub_genre'],
  ['languageAndScriptCode', 'language_and_script_code'],
  ['titleLocals', 'title_locals'],
  ['releasesLocals', 'title_locals'],
];

const TRACK_ALIASES: readonly (readonly [string, string])[] = [
  ['audioFileUrl', 'audio_file_url'],
  ['audio_file', 'audio_file_url'],
  ['audio_url', 'audio_file_url'],
  ['containsAi', 'contains_ai'],
  ['languageAndScriptCode', 'language_and_script_code'],
  ['titleLocals', 'title_locals'],
  ['tracksLocals', 'title_locals'],
];

const LOCALS_ENTRY_ALIASES: readonly (readonly [string, string])[] = [['title', 'name']];

/** A shallow copy with aliases renamed; the canonical name wins when both are sent. */
function applyAliases(source: Obj, aliases: readonly (readonly [string, string])[]): Obj {
  const result: Obj = { ...source };
  for (const [alias, canonical] of aliases) {
    if (!(alias in result)) continue;
    const value = result[alias];
    delete result[alias];
    if (result[canonical] === undefined && value !== undefined) result[canonical] = value;
  }
  return result;
}

/** title_locals entries take `title` for `name`; anything that is not an entry object is kept as sent. */
function normaliseTitleLocals(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry) => (isObj(entry) ? applyAliases(entry, LOCALS_ENTRY_ALIASES) : entry));
}

function withTitleLocals(target: Obj): Obj {
  if ('title_locals' in target) target.title_locals = normaliseTitleLocals(target.title_locals);
  return target;
}

export function normaliseRelease(raw: unknown): ReleaseInput {
  if (!isObj(raw)) return {};
  return withTitleLocals(applyAliases(raw, RELEASE_ALIASES)) as ReleaseInput;
}

/** A track object with aliases applied; a track that is not an object is kept as sent for the rules. */
export function normaliseTrack(raw: unknown): TrackInput {
  if (!isObj(raw)) return raw as TrackInput;
  return withTitleLocals(applyAliases(raw, TRACK_ALIASES)) as TrackInput;
}

/**
 * Applies the spec's field-name aliases to a `{ release, tracks }` payload (other top-level keys are ignored).
 * Never throws: values of the wrong type are kept as sent so the rules can report them. A release that is not
 * an object becomes `{}`; `tracks` omitted or null becomes `[]`, any other non-array is kept as sent.
 */
export function normaliseSubmission(raw: unknown): NormalisedSubmission {
  const payload = isObj(raw) ? raw : {};
  const release = normaliseRelease(payload.release);
  const rawTracks = payload.tracks;
  let tracks: TrackInput[];
  if (Array.isArray(rawTracks)) tracks = rawTracks.map(normaliseTrack);
  else if (rawTracks === undefined || rawTracks === null) tracks = [];
  else tracks = rawTracks as TrackInput[];
  const storeSelectionSent = (release as Obj).distribution_store_ids !== undefined;
  return { release, tracks, storeSelectionSent };
}

/** Presence of contains_ai (containsAi) or ai_generation_credits marks a track as AI, whatever the value. */
export function isAiDeclared(track: TrackInput): boolean {
  if (!isObj(track)) return false;
  const record: Obj = track;
  return (
    record.contains_ai !== undefined ||
    record.containsAi !== undefined ||
    record.ai_generation_credits !== undefined
  );
}
