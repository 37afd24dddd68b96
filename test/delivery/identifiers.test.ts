import { describe, expect, it } from 'vitest';
import { assignIsrc, assignUpc, isrcAssigner } from '../../src/domains/releases/assigned-identifiers.ts';
import {
  gs1CheckDigit,
  hasValidCheckDigit,
  ISRC_PATTERN,
} from '../../src/domains/releases/rules/engine/identifiers.ts';

describe('assigned identifiers', () => {
  it('computes the GS1 mod-10 check digit of known UPC-A codes', () => {
    expect(gs1CheckDigit('03600029145')).toBe(2); // 036000291452
    expect(gs1CheckDigit('01234567890')).toBe(5); // 012345678905
    expect(hasValidCheckDigit('036000291452')).toBe(true);
    expect(hasValidCheckDigit('036000291453')).toBe(false);
  });

  it('assigns a valid 12-digit UPC, the same for the same release and different for another', () => {
    const seeds = Array.from(
      { length: 200 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const upcs = seeds.map((seed) => assignUpc(seed));
    for (const upc of upcs) {
      expect(upc).toMatch(/^\d{12}$/);
      expect(hasValidCheckDigit(upc)).toBe(true);
    }
    expect(assignUpc(seeds[0]!)).toBe(upcs[0]);
    expect(new Set(upcs).size).toBe(upcs.length);
  });

  it('assigns ISRCs of the valid form, consecutive per track and stable on retry', () => {
    const seed = '6f1c1e7e-3d3b-4a55-9f0c-0a4b2f6f4d21';
    const isrcs = [0, 1, 2].map((index) => assignIsrc(seed, index, 2026));
    for (const isrc of isrcs) {
      expect(isrc).toMatch(ISRC_PATTERN);
      expect(isrc.startsWith('XXTRB26')).toBe(true);
    }
    expect(new Set(isrcs).size).toBe(3);
    const designations = isrcs.map((isrc) => Number(isrc.slice(7)));
    expect((designations[1]! - designations[0]! + 100_000) % 100_000).toBe(1);
    expect(assignIsrc(seed, 1, 2026)).toBe(isrcs[1]);
    expect(assignIsrc(seed, 0, 2027).slice(5, 7)).toBe('27');
    const assigner = isrcAssigner(seed, 2026);
    expect([0, 1, 2].map(assigner)).toEqual(isrcs);
  });
});
