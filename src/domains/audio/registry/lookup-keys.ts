/**
 * Lookup keys of a raw Chromaprint fingerprint: the top 20 bits of each 32-bit item. Noise, gain and
 * lossy coding flip mostly the low, fine-grained bits, so most of an excerpt's keys survive (about
 * 80% at 64 kbps with noise, measured in bench/audio.ts) while two unrelated songs share few.
 */
export const KEY_SHIFT = 12;

export const keyOf = (item: number) => item >>> KEY_SHIFT;

/** A reference's distinct keys, sorted (the GIN-indexed `lookup_keys`). */
export function lookupKeys(fingerprint: ArrayLike<number>): number[] {
  return [...new Set(Array.from(fingerprint, keyOf))].sort((a, b) => a - b);
}

/** Most pairs a candidate query names: an excerpt of 10 to 20 seconds has 80 to 160 items. */
const MAX_PAIRS = 160;

/**
 * The candidate query (intarray `query_int`): any two consecutive keys of the excerpt, both present.
 * A true source has most pairs; a stranger sharing a key or two by chance almost never has a pair,
 * so the GIN index hands over few candidates even at 100k recordings.
 */
export function candidateQuery(fingerprint: ArrayLike<number>): string | null {
  const keys = Array.from(fingerprint, keyOf);
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < keys.length && pairs.size < MAX_PAIRS; i++) {
    const a = keys[i] ?? 0;
    const b = keys[i + 1] ?? 0;
    pairs.add(a === b ? String(a) : `(${Math.min(a, b)}&${Math.max(a, b)})`);
  }
  return pairs.size === 0 ? null : [...pairs].join('|');
}
