/** Items that differ in at most this many bits count as the same (AcoustID's server allows 2). */
const MAX_BIT_ERRORS = 2;

function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export interface Alignment {
  /** Where the excerpt starts in the reference, in fingerprint items. */
  offset: number;
  /** Share of the excerpt's items matched at that offset (0..1). */
  matchedShare: number;
}

/**
 * Slides the excerpt along the reference and keeps the offset where most items agree within
 * {@link MAX_BIT_ERRORS} bits. Offsets are first voted for by items with equal lookup keys (cheap),
 * then the few best-voted offsets are checked item by item.
 */
export function bestAlignment(
  query: ArrayLike<number>,
  reference: ArrayLike<number>,
  keyShift = 12,
): Alignment {
  const positions = new Map<number, number[]>();
  for (let j = 0; j < reference.length; j++) {
    const key = (reference[j] ?? 0) >>> keyShift;
    const list = positions.get(key);
    if (list) list.push(j);
    else positions.set(key, [j]);
  }
  const votes = new Map<number, number>();
  for (let i = 0; i < query.length; i++) {
    for (const j of positions.get((query[i] ?? 0) >>> keyShift) ?? []) {
      votes.set(j - i, (votes.get(j - i) ?? 0) + 1);
    }
  }
  const offsets = [...votes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
  let best: Alignment = { offset: 0, matchedShare: 0 };
  for (const [voted] of offsets) {
    for (let offset = voted - 1; offset <= voted + 1; offset++) {
      let matched = 0;
      for (let i = 0; i < query.length; i++) {
        const j = i + offset;
        if (j < 0 || j >= reference.length) continue;
        if (bitCount(((query[i] ?? 0) ^ (reference[j] ?? 0)) >>> 0) <= MAX_BIT_ERRORS) matched++;
      }
      const share = query.length > 0 ? matched / query.length : 0;
      if (share > best.matchedShare) best = { offset, matchedShare: share };
    }
  }
  return best;
}
