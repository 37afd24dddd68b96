import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { ffmpegPath } from '../../src/domains/uploads/media/index.ts';

const run = promisify(execFile);

/** A solid-colour image of the given size, as PNG or JPEG bytes. */
export async function imageBytes(
  width: number,
  height: number,
  format: 'png' | 'jpeg' = 'png',
): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

/** A WAV file made by ffmpeg: a sine tone (or silence, which is fast to encode at any length). */
export async function makeWav(
  path: string,
  seconds: number,
  options: { silence?: boolean } = {},
): Promise<void> {
  const source = options.silence ? 'anullsrc=r=44100:cl=stereo' : `sine=frequency=440:sample_rate=44100`;
  await run(ffmpegPath(), [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-t',
    String(seconds),
    '-i',
    source,
    '-ar',
    '44100',
    '-ac',
    '2',
    '-c:a',
    'pcm_s16le',
    path,
  ]);
}
