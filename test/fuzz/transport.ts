import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

/** How a body travels: the bytes and the headers that describe (or misdescribe) them. */
export interface Encoded {
  body: Uint8Array | string | undefined;
  headers: Record<string, string>;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin-9',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fz',
  'multipart/form-data',
  'application/octet-stream',
  '',
] as const;

/** Mostly honest JSON; sometimes a wrong type, a corrupt or truncated compression, or an odd charset. */
export function encodeBody(text: string): fc.Arbitrary<Encoded> {
  const honest: Encoded = { body: text, headers: { 'content-type': 'application/json' } };
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(honest) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...CONTENT_TYPES)
        .map((type): Encoded => ({ body: text, headers: type ? { 'content-type': type } : {} })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('gzip', 'deflate', 'br').chain(
        (encoding): fc.Arbitrary<Encoded> =>
          fc.constantFrom<'garbage' | 'truncated' | 'valid'>('garbage', 'truncated', 'valid').map((kind) => {
            const compressed =
              encoding === 'gzip'
                ? gzipSync(text)
                : encoding === 'deflate'
                  ? deflateSync(text)
                  : brotliCompressSync(text);
            const body =
              kind === 'garbage'
                ? Buffer.from(`not ${encoding} ${text.slice(0, 20)}`)
                : kind === 'truncated'
                  ? compressed.subarray(0, Math.max(1, Math.floor(compressed.length / 2)))
                  : compressed;
            return {
              body: new Uint8Array(body),
              headers: { 'content-type': 'application/json', 'content-encoding': encoding },
            };
          }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constant<Encoded>({
        body: text,
        headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
      }),
    },
  );
}
