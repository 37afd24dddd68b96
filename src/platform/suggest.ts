/** "Did you mean": close spellings and containment, for names people and agents get slightly wrong. */

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions ("porfile"). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** Inputs longer than this are no misspelling worth a quadratic comparison. */
const MAX_INPUT = 100;

/**
 * The candidate closest to `input` (compared by `key`, e.g. lowercased), or null: a close spelling
 * first, else a candidate that contains the input or is contained in it (`explicit` → `explicit_flag`).
 */
export function closestName(
  input: string,
  candidates: readonly string[],
  key: (name: string) => string = (name) => name.toLowerCase(),
): string | null {
  const wanted = key(input);
  if (wanted.length < 2 || wanted.length > MAX_INPUT) return null;
  let best: { name: string; score: number } | null = null;
  for (const name of candidates) {
    const candidate = key(name);
    const threshold = Math.max(1, Math.floor(Math.min(candidate.length, wanted.length) / 3));
    const distance = editDistance(wanted, candidate);
    let score: number | null = null;
    if (distance <= threshold) score = distance;
    else if (wanted.length >= 4 && (candidate.includes(wanted) || wanted.includes(candidate))) {
      score = threshold + 1 + Math.abs(candidate.length - wanted.length) / 100;
    }
    if (score !== null && (best === null || score < best.score)) best = { name, score };
  }
  return best?.name ?? null;
}
