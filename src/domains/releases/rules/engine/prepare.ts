import { resolveStoreId } from '../../../catalog/index.ts';
import { ISRC_PATTERN, normaliseIsrc } from './identifiers.ts';
import { isObj, isOmitted, type Obj } from './issues.ts';
import { judgeScriptCode, LOCALS_VERSION_KEYS, localsKey } from './localization.ts';
import type { NormalisedSubmission, ReleaseInput, TrackInput } from './types.ts';

/** Drops an unconfirmable script code and spells a confirmed one canonically; a mismatch is left (it is an error). */
function prepareScriptCode(target: Obj, fieldLanguage: unknown): void {
  if (!('language_and_script_code' in target)) return;
  const value = target.language_and_script_code;
  if (isOmitted(value)) {
    delete target.language_and_script_code;
    return;
  }
  const verdict = judgeScriptCode(value, fieldLanguage, 'language');
  if (verdict.status === 'unconfirmed') delete target.language_and_script_code;
  else if (verdict.status === 'confirmed') target.language_and_script_code = verdict.code;
}

/** One entry per language (the first wins); script codes as above; versions dropped from title entries. */
function prepareLocals(value: unknown, kind: 'title' | 'artist'): unknown {
  if (!Array.isArray(value)) return value;
  const seen = new Set<string>();
  const kept: unknown[] = [];
  for (const entry of value as unknown[]) {
    if (!isObj(entry)) {
      kept.push(entry);
      continue;
    }
    const key = localsKey(entry);
    if (key !== undefined) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    const copy: Obj = { ...entry };
    prepareScriptCode(copy, copy.language);
    if (kind === 'title') for (const versionKey of LOCALS_VERSION_KEYS) delete copy[versionKey];
    kept.push(copy);
  }
  return kept;
}

function prepareLocalsOf(target: Obj): void {
  if ('title_locals' in target) target.title_locals = prepareLocals(target.title_locals, 'title');
  if ('artist_locals' in target) target.artist_locals = prepareLocals(target.artist_locals, 'artist');
}

/** Aliases resolved to ids and duplicates dropped; entries naming no store are left for the error. */
function prepareStoreIds(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return value;
  const result: unknown[] = [];
  for (const entry of value as unknown[]) {
    const id = typeof entry === 'number' || typeof entry === 'string' ? resolveStoreId(entry) : null;
    const resolved = id ?? entry;
    if (!result.includes(resolved)) result.push(resolved);
  }
  return result;
}

function prepareRelease(release: ReleaseInput): ReleaseInput {
  const copy: Obj = isObj(release) ? { ...release } : {};
  prepareScriptCode(copy, copy.metadata_language);
  prepareLocalsOf(copy);
  copy.distribution_store_ids = prepareStoreIds(copy.distribution_store_ids);
  if ('upc' in copy) {
    if (isOmitted(copy.upc)) delete copy.upc;
    else if (typeof copy.upc === 'string') copy.upc = copy.upc.trim();
  }
  return copy as ReleaseInput;
}

function prepareTrack(track: TrackInput): TrackInput {
  if (!isObj(track)) return track;
  const copy: Obj = { ...track };
  prepareScriptCode(copy, copy.language);
  prepareLocalsOf(copy);
  if ('isrc' in copy) {
    if (isOmitted(copy.isrc)) delete copy.isrc;
    else if (typeof copy.isrc === 'string') {
      const isrc = normaliseIsrc(copy.isrc);
      if (ISRC_PATTERN.test(isrc)) copy.isrc = isrc;
    }
  }
  return copy as TrackInput;
}

/**
 * What submission does silently to a payload that passed the rules (docs/releases.md, "Submit"): extra
 * locals entries for a language already present dropped, unconfirmable script codes dropped, versions
 * removed from title_locals entries, ISRCs normalised, store aliases resolved to ids (omitted or null
 * stays null = all supported stores). Pure: the input is not modified.
 */
export function prepareForSubmission(submission: NormalisedSubmission): NormalisedSubmission {
  const tracks: unknown = submission.tracks;
  return {
    release: prepareRelease(submission.release),
    tracks: Array.isArray(tracks)
      ? tracks.map((track: TrackInput) => prepareTrack(track))
      : submission.tracks,
    storeSelectionSent: submission.storeSelectionSent,
  };
}
