import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { ffmpegPath } from '../../../src/domains/uploads/media/index.ts';

const run = promisify(execFile);

/** A temp directory per test file, removed afterwards; `file(name)` is a path inside it. */
export function useTempDir(): { file(name: string): string } {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tributary-media-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return {
    file: (name) => {
      if (!dir) throw new Error('useTempDir: the directory exists only inside tests');
      return path.join(dir, name);
    },
  };
}

/** Runs the platform's ffmpeg with `args` (quiet, overwriting). */
export async function ffmpeg(...args: string[]): Promise<void> {
  await run(ffmpegPath(), ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/** Runs ffmpeg writing to `pipe:1` (non-seekable, as a streaming encoder would) and returns the bytes. */
export async function ffmpegToPipe(...args: string[]): Promise<Buffer> {
  const base = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args, 'pipe:1'];
  const { stdout } = await run(ffmpegPath(), base, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/**
 * A 440 Hz sine of `seconds` written to `out`, encoded with `codecArgs`
 * (e.g. `['-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le']`).
 */
export async function sine(out: string, codecArgs: string[], seconds = 2): Promise<string> {
  await ffmpeg('-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, ...codecArgs, out);
  return out;
}

/** Deterministic noise (so no run ever happens to start with a known file signature). */
export function noise(length: number, seed = 42): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

export async function writeBytes(out: string, bytes: Uint8Array | string): Promise<string> {
  await writeFile(out, bytes);
  return out;
}
