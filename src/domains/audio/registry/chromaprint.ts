import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { decodePcm } from '../pcm.ts';

const require = createRequire(import.meta.url);

/** Chromaprint's own analysis rate: decoding straight to it skips its internal resampler. */
const SAMPLE_RATE = 11_025;
/** Seconds of a raw fingerprint item (4096-sample frames, 1/3 overlap, at 11 025 Hz). */
export const ITEM_SECONDS = 4096 / 3 / SAMPLE_RATE;
/** The most audio fingerprinted (AcoustID's fpcalc stops at 120 s; a registry entry wants the whole). */
const MAX_SECONDS = 600;

interface ChromaprintModule {
  _malloc(size: number): number;
  _free(ptr: number): void;
  _chromaprint_new(algorithm: number): number;
  _chromaprint_free(ctx: number): void;
  _chromaprint_start(ctx: number, sampleRate: number, channels: number): number;
  _chromaprint_feed(ctx: number, data: number, size: number): number;
  _chromaprint_finish(ctx: number): number;
  _chromaprint_get_raw_fingerprint(ctx: number, data: number, size: number): number;
  HEAP16: Int16Array;
  HEAP32: Int32Array;
}

let loaded: Promise<ChromaprintModule> | undefined;

/**
 * The Chromaprint WebAssembly module of `@unimusic/chromaprint`, loaded once. Its Emscripten glue is
 * built for browsers: it looks for `window` and fetches the .wasm, so Node gives it both.
 */
function chromaprint(): Promise<ChromaprintModule> {
  loaded ??= (async () => {
    const dist = path.dirname(require.resolve('@unimusic/chromaprint/dist/chromaprint.wasm'));
    const wasmBinary = await readFile(path.join(dist, 'chromaprint.wasm'));
    const scope = globalThis as { window?: unknown };
    scope.window ??= globalThis;
    const { default: create } = (await import(path.join(dist, 'chromaprint.js'))) as {
      default: (options: { wasmBinary: Uint8Array }) => Promise<ChromaprintModule>;
    };
    return create({ wasmBinary });
  })();
  return loaded;
}

/** The raw Chromaprint fingerprint (algorithm 2, as `fpcalc -raw`) of mono 16-bit PCM at 11 025 Hz. */
export async function fingerprintPcm(samples: Int16Array): Promise<Int32Array> {
  const module = await chromaprint();
  const ctx = module._chromaprint_new(1);
  const data = module._malloc(samples.length * 2);
  const out = module._malloc(8);
  try {
    module.HEAP16.set(samples, data >> 1);
    if (!module._chromaprint_start(ctx, SAMPLE_RATE, 1)) throw new Error('chromaprint_start failed');
    if (!module._chromaprint_feed(ctx, data, samples.length)) throw new Error('chromaprint_feed failed');
    if (!module._chromaprint_finish(ctx)) throw new Error('chromaprint_finish failed');
    if (!module._chromaprint_get_raw_fingerprint(ctx, out, out + 4)) return new Int32Array(0);
    const pointer = module.HEAP32[out >> 2] ?? 0;
    const size = module.HEAP32[(out >> 2) + 1] ?? 0;
    const fingerprint = module.HEAP32.slice(pointer >> 2, (pointer >> 2) + size);
    module._free(pointer);
    return fingerprint;
  } finally {
    module._free(out);
    module._free(data);
    module._chromaprint_free(ctx);
  }
}

/** Decodes any audio with the bundled ffmpeg and fingerprints it. */
export async function fingerprintAudio(
  input: Parameters<typeof decodePcm>[0],
  options: { maxSeconds?: number } = {},
): Promise<{ fingerprint: Int32Array; seconds: number }> {
  const pcm = await decodePcm(input, {
    sampleRate: SAMPLE_RATE,
    maxSeconds: options.maxSeconds ?? MAX_SECONDS,
    format: 's16le',
  });
  const samples = pcm.samples as Int16Array;
  return { fingerprint: await fingerprintPcm(samples), seconds: samples.length / SAMPLE_RATE };
}
