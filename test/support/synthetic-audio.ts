import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { ffmpegPath } from '../../src/domains/uploads/media/index.ts';

const run = promisify(execFile);

export const RATE = 44_100;

/** A small seeded generator (mulberry32): the same seed makes the same "song". */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Music-like audio without recordings: a chord progression of harmonic tones with envelopes, a melody, a kick,
 * a snare and hi-hats of filtered noise, and a noise bed. Each seed is a different song.
 */
export function musicLike(seed: number, seconds: number, rate = RATE): Float32Array {
  const random = seeded(seed);
  const out = new Float32Array(Math.round(seconds * rate));
  const bpm = 80 + random() * 80;
  const beat = (60 / bpm) * rate;
  const root = 40 + Math.floor(random() * 12);
  const progression = Array.from({ length: 4 }, () => root + Math.floor(random() * 12) - 5);
  const qualities = [
    [0, 4, 7, 12],
    [0, 3, 7, 12],
    [0, 5, 7, 12],
    [0, 4, 7, 10],
    [0, 3, 7, 10],
  ];
  const chords = progression.map(() => qualities[Math.floor(random() * qualities.length)] ?? [0, 4, 7]);
  const scale = [0, 2, 4, 5, 7, 9, 11, 12, 14, 16];
  // A melody: a random scale note every half beat, over a longer cycle than the chords.
  const melody = Array.from(
    { length: 32 },
    () => root + 24 + (scale[Math.floor(random() * scale.length)] ?? 0),
  );
  const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
  const wave = harmonicTable(3 + Math.floor(random() * 6));
  const lead = harmonicTable(1 + Math.floor(random() * 4));
  const bar = beat * 4;
  const step = beat / 2;
  for (let i = 0; i < out.length; i++) {
    const chordIndex = Math.floor(i / bar) % progression.length;
    const base = progression[chordIndex] ?? root;
    const inBar = (i % bar) / rate;
    let v = 0;
    for (const interval of chords[chordIndex] ?? [])
      v += lookup(wave, (hz(base + interval + 12) * i) / rate) * 0.07;
    const note = melody[Math.floor(i / step) % melody.length] ?? root;
    const inStep = (i % step) / rate;
    out[i] = v * Math.exp(-inBar * 0.6) + lookup(lead, (hz(note) * i) / rate) * 0.12 * Math.exp(-inStep * 3);
  }
  let snare = 0;
  let hat = 0;
  for (let i = 0; i < out.length; i++) {
    const inBeat = (i % beat) / rate;
    const beatNo = Math.floor(i / beat) % 4;
    const kick = Math.sin(2 * Math.PI * (50 + 80 * Math.exp(-inBeat * 30)) * inBeat) * Math.exp(-inBeat * 8);
    const noise = random() * 2 - 1;
    snare = 0.6 * snare + 0.4 * noise;
    hat = noise - hat * 0.5;
    const snareEnv = beatNo % 2 === 1 ? Math.exp(-inBeat * 18) : 0;
    const hatEnv = Math.exp(-(((i % (beat / 2)) / rate) * 60));
    out[i] = (out[i] ?? 0) + 0.35 * kick + 0.2 * snare * snareEnv + 0.05 * hat * hatEnv + 0.01 * noise;
  }
  return normalise(out, 0.8);
}

const TABLE = 8192;

/** One period of a tone with `harmonics` partials at 1/h² (a wavetable: fast to play at any pitch). */
function harmonicTable(harmonics: number): Float64Array {
  const table = new Float64Array(TABLE + 1);
  for (let k = 0; k <= TABLE; k++) {
    let v = 0;
    for (let h = 1; h <= harmonics; h++) v += Math.sin((2 * Math.PI * h * k) / TABLE) / (h * h);
    table[k] = v;
  }
  return table;
}

/** The table at a phase given in cycles, linearly interpolated. */
function lookup(table: Float64Array, cycles: number): number {
  const position = (cycles - Math.floor(cycles)) * TABLE;
  const index = Math.floor(position);
  const a = table[index] ?? 0;
  return a + ((table[index + 1] ?? 0) - a) * (position - index);
}

function normalise(samples: Float32Array, peak: number): Float32Array {
  let max = 0;
  for (const s of samples) max = Math.max(max, Math.abs(s));
  if (max > 0) for (let i = 0; i < samples.length; i++) samples[i] = ((samples[i] ?? 0) / max) * peak;
  return samples;
}

/**
 * The same audio through a simulated neural decoder: a latent at 1/8 of the rate (the signal
 * low-passed and decimated), then three strided transposed convolutions (stride 2, kernel 4, random
 * weights and bias, leaky-ReLU between), as the upsampling stacks of neural audio decoders are built.
 */
export function throughDecoder(samples: Float32Array, seed: number, layers = 3): Float32Array {
  const random = seeded(seed ^ 0x5eed);
  const factor = 2 ** layers;
  // Latent: a moving-average low-pass and decimation.
  let x = new Float32Array(Math.floor(samples.length / factor));
  for (let i = 0; i < x.length; i++) {
    let sum = 0;
    for (let j = 0; j < factor; j++) sum += samples[i * factor + j] ?? 0;
    x[i] = sum / factor;
  }
  for (let layer = 0; layer < layers; layer++) {
    const kernel = [0.5, 1, 1, 0.5].map((w) => w + (random() - 0.5) * 0.6);
    const bias = 0.02 + random() * 0.03;
    const y = new Float32Array(x.length * 2 + 2);
    for (let i = 0; i < x.length; i++) {
      const value = x[i] ?? 0;
      for (let k = 0; k < kernel.length; k++) y[2 * i + k] = (y[2 * i + k] ?? 0) + value * (kernel[k] ?? 0);
    }
    for (let i = 0; i < y.length; i++) {
      const v = (y[i] ?? 0) + bias;
      y[i] = layer < layers - 1 ? (v > 0 ? v : 0.2 * v) : v;
    }
    x = y;
  }
  let mean = 0;
  for (const v of x) mean += v;
  mean /= x.length || 1;
  for (let i = 0; i < x.length; i++) x[i] = (x[i] ?? 0) - mean;
  return normalise(x.subarray(0, samples.length), 0.8);
}

/** Mono 16-bit WAV bytes of float samples. */
export function wavBytes(samples: Float32Array, rate = RATE): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    data.writeInt16LE(Math.round(s * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export async function writeWav(path: string, samples: Float32Array, rate = RATE): Promise<void> {
  await writeFile(path, wavBytes(samples, rate));
}

/** Re-encodes a file with ffmpeg (MP3 at a bitrate, say), optionally cutting and changing the gain. */
export async function reencode(
  input: string,
  output: string,
  options: {
    bitrate?: string;
    startSeconds?: number;
    seconds?: number;
    gainDb?: number;
    noise?: number;
  } = {},
): Promise<void> {
  const filters = [`volume=${options.gainDb ?? 0}dB`];
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
  if (options.startSeconds !== undefined) args.push('-ss', String(options.startSeconds));
  if (options.seconds !== undefined) args.push('-t', String(options.seconds));
  args.push('-i', input);
  if (options.noise) {
    args.push('-f', 'lavfi', '-i', `anoisesrc=color=white:amplitude=${options.noise}:r=${RATE}`);
    args.push('-filter_complex', `[0:a]${filters.join(',')}[a];[a][1:a]amix=inputs=2:duration=first`);
  } else {
    args.push('-af', filters.join(','));
  }
  if (options.bitrate) args.push('-c:a', 'libmp3lame', '-b:a', options.bitrate);
  args.push(output);
  await run(ffmpegPath(), args);
}
