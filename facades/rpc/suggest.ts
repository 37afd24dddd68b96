/**
 * "Did you mean" for tool names. Agents misspell, pluralise, drop prefixes and use camelCase; the
 * suggestions always name canonical tools.
 */
import { editDistance } from '../../src/platform/suggest.ts';

export { editDistance };

/** `getReleaseStatus`, `Get-Release Status` → `get_release_status`. */
export function normaliseToolName(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export const MAX_NAME_LENGTH = 100;

/** Verbs every tool shares: matching on them alone would suggest everything. */
const COMMON_WORDS = new Set(['get', 'set', 'list', 'check', 'create', 'update', 'delete', 'show', 'read']);

function words(name: string): string[] {
  return name.split('_').filter((word) => word.length >= 3 && !COMMON_WORDS.has(word));
}

/**
 * Up to `limit` canonical names for an unknown one. `names` maps every callable name (canonical or
 * alias) to its canonical tool. Close spellings rank first, then names that contain (or are contained
 * in) the input, then names sharing a meaningful word.
 */
export function suggestToolNames(input: string, names: ReadonlyMap<string, string>, limit = 3): string[] {
  // Edit distance is quadratic: a name this long is no misspelling worth the work.
  if (input.length > MAX_NAME_LENGTH) return [];
  const wanted = normaliseToolName(input);
  if (!wanted) return [];
  const wantedWords = words(wanted);
  const scored: { canonical: string; score: number; name: string }[] = [];
  for (const [name, canonical] of names) {
    const threshold = Math.max(2, Math.floor(name.length / 4));
    const distance = editDistance(wanted, name);
    let score: number | null = null;
    if (distance <= threshold) score = distance;
    else if (name.includes(wanted) || wanted.includes(name)) score = threshold + 1;
    else if (wantedWords.some((word) => name.split('_').includes(word))) score = threshold + 2;
    if (score !== null) scored.push({ canonical, score, name });
  }
  scored.sort((x, y) => x.score - y.score || x.name.length - y.name.length || x.name.localeCompare(y.name));
  const result: string[] = [];
  for (const entry of scored) {
    if (!result.includes(entry.canonical)) result.push(entry.canonical);
    if (result.length === limit) break;
  }
  return result;
}
