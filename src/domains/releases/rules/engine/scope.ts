import { isObj, type Obj, text } from './issues.ts';
import type { NormalisedSubmission } from './types.ts';

export interface TrackView {
  index: number;
  /** `tracks[<index>]` */
  path: string;
  track: Obj;
}

/** The submission as the rules read it: everything unknown until checked. */
export interface Scope {
  release: Obj;
  /** `tracks` as sent (may be anything). */
  tracks: unknown;
  /** The tracks that are objects, with their index. */
  trackViews: TrackView[];
  storeSelectionSent: boolean;
}

export function scopeOf(submission: NormalisedSubmission): Scope {
  const release: Obj = isObj(submission.release) ? submission.release : {};
  const tracks: unknown = submission.tracks;
  const trackViews: TrackView[] = [];
  if (Array.isArray(tracks)) {
    tracks.forEach((track: unknown, index) => {
      if (isObj(track)) trackViews.push({ index, path: `tracks[${index}]`, track });
    });
  }
  return { release, tracks, trackViews, storeSelectionSent: submission.storeSelectionSent };
}

/** The items of an array field with their paths; an empty list for anything that is not an array. */
export function items(value: unknown, path: string): { value: unknown; path: string; index: number }[] {
  if (!Array.isArray(value)) return [];
  return value.map((item: unknown, index) => ({ value: item, path: `${path}[${index}]`, index }));
}

/** The object items of an array field with their paths. */
export function objectItems(value: unknown, path: string): { value: Obj; path: string; index: number }[] {
  const found: { value: Obj; path: string; index: number }[] = [];
  if (!Array.isArray(value)) return found;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (isObj(item)) found.push({ value: item, path: `${path}[${index}]`, index });
  }
  return found;
}

/** The release metadata language as sent, trimmed and lowercased (undefined when not sent). */
export function metadataLanguage(release: Obj): string | undefined {
  return text(release.metadata_language)?.toLowerCase();
}

/** Names of the primary artists credited on an owner (release or track), in credit order. */
export function primaryArtistNames(owner: Obj): string[] {
  const names: string[] = [];
  const main = text(owner.primary_artist_name);
  if (main) names.push(main);
  for (const entry of objectItems(owner.primary_artists, '')) {
    const name = text(entry.value.name);
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}
