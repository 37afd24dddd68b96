import fc from 'fast-check';

/** Strings that have broken services: empty, control characters, bad escapes, huge, ids that are not. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '%ZZ',
  '%uD800',
  '%00',
  '\uD800',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE releases; --",
  'x'.repeat(600),
  'y'.repeat(5000),
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  '12345678-1234-1234-1234-1234567890123',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  'http://127.0.0.1:1/x',
  'https://169.254.169.254/latest',
  'ftp://x/y',
  'spotify',
  'all',
  'coverArt',
  'audio',
  '2026-13-45',
  '{"a":1}',
] as const;

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

export const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1.5, 1e308, -1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value, bounded in size, leaning on the values that broke services before. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }) },
  ),
})).value;

/** A JSON value nested `depth` levels deep (arrays), as text: deeper than any parser should walk. */
export const deepJsonText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
