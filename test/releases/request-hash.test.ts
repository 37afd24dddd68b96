import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestHash } from '../../src/domains/releases/request-hash.ts';

/**
 * The hash as it was first defined: the JSON of a copy of the value with every object's keys sorted.
 * Keys stored in the last 24 hours carry hashes made this way, so a new implementation must agree
 * with it byte for byte.
 */
function referenceHash(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object') {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const member = canonical((v as Record<string, unknown>)[key]);
        if (key === '__proto__')
          Object.defineProperty(sorted, key, { value: member, enumerable: true, writable: true });
        else sorted[key] = member;
      }
      return sorted;
    }
    return v;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(value) ?? null))
    .digest('hex');
}

/** A deterministic stream of numbers in [0, 1) (mulberry32), so a failure can be replayed. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const KEYS = [
  'title',
  'b',
  'a',
  'Z',
  '0',
  '10',
  '9',
  '01',
  '-1',
  '4294967295',
  '4294967294',
  '__proto__',
  'é',
  'ß',
  '\u{1f3b5}',
  ' ',
  '#',
  '"q"',
  'a\u0000b',
  'constructor',
  'toString',
  '',
];
const LEAVES = [
  null,
  true,
  false,
  0,
  -0,
  1.5,
  -3e-7,
  1e21,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'tëxt',
  'line\nbreak',
  '\u{1f3b5}',
  '\ud800',
  undefined,
];

/** A random JSON-like value as a parsed body or a GraphQL input holds it (undefined members included). */
function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const roll = random();
  if (depth === 0 || roll < 0.4) return pick(LEAVES);
  if (roll < 0.65)
    return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth - 1));
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 6); i > 0; i--) {
    // As JSON.parse makes it: "__proto__" an own key like any other.
    Object.defineProperty(object, pick(KEYS), {
      value: randomValue(random, depth - 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

describe('requestHash', () => {
  it('does not depend on the order of keys, at any depth', () => {
    const a = { release: { title: 'T', upc: null }, tracks: [{ b: 1, a: [{ y: 2, x: 1 }] }] };
    const b = { tracks: [{ a: [{ x: 1, y: 2 }], b: 1 }], release: { upc: null, title: 'T' } };
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart values, array order and a key sent as "__proto__"', () => {
    const base = requestHash({ tracks: [1, 2] });
    expect(requestHash({ tracks: [2, 1] })).not.toBe(base);
    expect(requestHash({ tracks: [1, '2'] })).not.toBe(base);
    const withProto = JSON.parse('{"tracks":[1,2],"__proto__":{"x":1}}');
    expect(requestHash(withProto)).not.toBe(base);
    expect(requestHash(JSON.parse('{"__proto__":{"x":1},"tracks":[1,2]}'))).toBe(requestHash(withProto));
  });

  it('agrees byte for byte with the hash as first defined, on 5 000 random values', () => {
    const random = randomSource(20261127);
    for (let i = 0; i < 5_000; i++) {
      const value = randomValue(random, 4);
      expect(requestHash(value), JSON.stringify(value)).toBe(referenceHash(value));
    }
  });

  it("orders array-index keys as JSON does and keeps a submission's hash", () => {
    const value = JSON.parse('{"b":1,"10":2,"9":3,"#":4,"01":5}');
    expect(requestHash(value)).toBe(referenceHash(value));
    expect(requestHash({ release: { title: 'T' }, tracks: [{ title: 'A' }] })).toBe(
      createHash('sha256').update('{"release":{"title":"T"},"tracks":[{"title":"A"}]}').digest('hex'),
    );
  });

  it('leaves out undefined members, as the JSON of the request does', () => {
    expect(requestHash({ release: {}, releaseId: undefined })).toBe(requestHash({ release: {} }));
  });
});
