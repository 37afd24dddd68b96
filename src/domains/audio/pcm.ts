import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { ffmpegPath } from '../uploads/index.ts';

export interface DecodeOptions {
  sampleRate: number;
  /** Stops after this much audio (the analysers look at no more). */
  maxSeconds: number;
  format: 'f32le' | 's16le';
  signal?: AbortSignal;
}

/** Mono PCM of any audio ffmpeg reads, at a fixed rate: raw samples, interleaving nothing. */
export interface Pcm {
  sampleRate: number;
  samples: Float32Array | Int16Array;
}

/**
 * Decodes audio (a stream of file bytes, or a path) with the bundled ffmpeg to mono raw PCM at one
 * sample rate. Rejects when ffmpeg cannot read the input.
 */
export function decodePcm(input: Readable | string, options: DecodeOptions): Promise<Pcm> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpegPath(),
      [
        '-nostdin',
        '-hide_banner',
        '-loglevel',
        'error',
        '-i',
        typeof input === 'string' ? input : 'pipe:0',
        '-t',
        String(options.maxSeconds),
        '-vn',
        '-ac',
        '1',
        '-ar',
        String(options.sampleRate),
        '-f',
        options.format,
        'pipe:1',
      ],
      { stdio: [typeof input === 'string' ? 'ignore' : 'pipe', 'pipe', 'pipe'], signal: options.signal },
    );
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    if (typeof input !== 'string' && child.stdin) {
      // ffmpeg stops reading once it has decoded maxSeconds: a closed pipe then is expected.
      child.stdin.on('error', () => {});
      input.on('error', (error) => child.kill() && reject(error));
      input.pipe(child.stdin);
    }
    // The source is ours to close: ffmpeg may stop reading long before its end.
    const releaseInput = () => {
      if (typeof input !== 'string') input.destroy();
    };
    child.once('error', (error) => {
      releaseInput();
      reject(error);
    });
    child.once('close', (code) => {
      releaseInput();
      if (code !== 0) {
        reject(new Error(`ffmpeg could not decode the audio: ${stderr.trim() || `exit ${code}`}`));
        return;
      }
      const bytes = Buffer.concat(chunks);
      const copy = new ArrayBuffer(bytes.length - (bytes.length % 4));
      new Uint8Array(copy).set(bytes.subarray(0, copy.byteLength));
      resolve({
        sampleRate: options.sampleRate,
        samples: options.format === 'f32le' ? new Float32Array(copy) : new Int16Array(copy),
      });
    });
  });
}
