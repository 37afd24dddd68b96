import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** How much of ffmpeg's stderr is kept (the first lines name the problem; the rest is repetition). */
const STDERR_LIMIT_BYTES = 8 * 1024;

/**
 * The ffmpeg binary: `FFMPEG_PATH` when set, else the one shipped inside `@ffmpeg-installer/ffmpeg`
 * (resolved on first use, so a machine that sets `FFMPEG_PATH` never needs the package's binary).
 */
export function ffmpegPath(): string {
  const fromEnv = process.env.FFMPEG_PATH;
  if (fromEnv) return fromEnv;
  const installer = require('@ffmpeg-installer/ffmpeg') as { path: string };
  return installer.path;
}

export interface FfmpegRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The head of stderr, at most {@link STDERR_LIMIT_BYTES}. */
  stderr: string;
}

/** Runs ffmpeg to completion; stdout is ignored, stderr kept (bounded). Rejects only if it cannot start. */
export function runFfmpeg(
  args: readonly string[],
  options: { signal?: AbortSignal } = {},
): Promise<FfmpegRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      signal: options.signal,
      windowsHide: true,
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      if (kept >= STDERR_LIMIT_BYTES) return;
      const slice = chunk.subarray(0, STDERR_LIMIT_BYTES - kept);
      chunks.push(slice);
      kept += slice.length;
    });
    child.once('error', reject);
    child.once('close', (exitCode, signal) => {
      resolve({ exitCode, signal, stderr: Buffer.concat(chunks).toString('utf8').trim() });
    });
  });
}
