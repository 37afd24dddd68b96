import { rm } from 'node:fs/promises';
import { parseFile } from 'music-metadata';
import { runFfmpeg } from './ffmpeg.ts';
import { type MediaWarning, mediaRejected } from './warnings.ts';

export interface AudioFacts {
  durationSeconds: number;
  sampleRate: number;
  /** Bits per sample of a lossless stream; `null` for lossy codecs, where it means nothing. */
  bitDepth: number | null;
  channels: number;
  codec: string | null;
  container: string | null;
  lossless: boolean;
}

export interface AudioOptions {
  /** Upload field named in an error's details (default `audio`). */
  fieldPath?: string;
}

export interface TranscodeOptions extends AudioOptions {
  /** Aborting kills ffmpeg (the output is removed and the abort error rethrown). */
  signal?: AbortSignal;
}

export interface TranscodedAudio {
  /** Facts of the delivery file written to `outputPath`. */
  facts: AudioFacts;
  /** Facts of the upload (its duration is the decoded one when the container did not state it). */
  source: AudioFacts;
  warnings: MediaWarning[];
}

/** Shorter than this (rounded to the millisecond, zero) counts as no audio at all. */
const MIN_DURATION_SECONDS = 0.001;
/** The platform's floor for delivery: 44.1 kHz at 16 bits (the rule `audio.lossless`). */
const MIN_SAMPLE_RATE = 44_100;
const MIN_BIT_DEPTH = 16;
/** ffmpeg's FLAC encoder stores 16 or 24 bits; deeper sources are reduced to 24. */
const MAX_FLAC_BIT_DEPTH = 24;

/**
 * Demuxers ffmpeg may use on an upload: audio containers only. Playlist, concat and image-sequence
 * demuxers, which open further files or URLs, are never reachable from uploaded content.
 */
const AUDIO_DEMUXERS = 'wav,w64,flac,mp3,ogg,aiff,mov,matroska,aac,ac3,eac3,ape,wv,tta,asf,mpc,mpc8,dsf,caf';

const UNDECODABLE = 'The file could not be decoded as audio.';

type RawFacts = Omit<AudioFacts, 'durationSeconds'> & { durationSeconds: number | null };

/**
 * Reads an audio file's facts (music-metadata streams the file; with `duration` it may scan frames but
 * never holds the whole file). A file without a decodable audio stream or a duration is rejected (422,
 * `undecodable_audio`).
 */
export async function probeAudio(path: string, options: AudioOptions = {}): Promise<AudioFacts> {
  const fieldPath = options.fieldPath ?? 'audio';
  const facts = await readFacts(path, fieldPath);
  if (facts.durationSeconds === null || facts.durationSeconds < MIN_DURATION_SECONDS) {
    throw undecodable(fieldPath, 'The file holds no audio (its duration is zero or unknown).');
  }
  return { ...facts, durationSeconds: facts.durationSeconds };
}

/**
 * Transcodes an upload to the platform's delivery format, lossless FLAC, keeping its sample rate and
 * channels and its bit depth (16, or 24 for deeper sources). ffmpeg streams file to file, so memory stays
 * bounded whatever the size. Undecodable audio is rejected (422, `undecodable_audio`) and, on any failure,
 * nothing is left at `outputPath`.
 */
export async function transcodeToFlac(
  inputPath: string,
  outputPath: string,
  options: TranscodeOptions = {},
): Promise<TranscodedAudio> {
  const fieldPath = options.fieldPath ?? 'audio';
  try {
    const source = await readFacts(inputPath, fieldPath);
    if (source.durationSeconds !== null && source.durationSeconds < MIN_DURATION_SECONDS) {
      throw undecodable(fieldPath, 'The file holds no audio (its duration is zero).');
    }
    const run = await runFfmpeg(ffmpegArgs(inputPath, outputPath, source), { signal: options.signal });
    if (run.exitCode !== 0) {
      throw undecodable(fieldPath, UNDECODABLE, new Error(`ffmpeg exited ${run.exitCode}: ${run.stderr}`));
    }
    const facts = await probeAudio(outputPath, { fieldPath });
    const expected = source.durationSeconds;
    if (expected !== null && expected - facts.durationSeconds > Math.max(0.5, expected * 0.01)) {
      throw undecodable(
        fieldPath,
        `The audio is damaged or truncated: only ${facts.durationSeconds.toFixed(1)} s of ` +
          `${expected.toFixed(1)} s could be decoded.`,
      );
    }
    const completeSource = { ...source, durationSeconds: expected ?? facts.durationSeconds };
    return { facts, source: completeSource, warnings: audioWarnings(source, facts) };
  } catch (error) {
    await rm(outputPath, { force: true });
    throw error;
  }
}

function ffmpegArgs(inputPath: string, outputPath: string, source: RawFacts): string[] {
  const deep = source.lossless && source.bitDepth !== null && source.bitDepth > MIN_BIT_DEPTH;
  const sampleFormat = deep
    ? ['-sample_fmt', 's32', '-bits_per_raw_sample', String(MAX_FLAC_BIT_DEPTH)]
    : ['-sample_fmt', 's16'];
  return [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'],
    ...['-protocol_whitelist', 'file', '-format_whitelist', AUDIO_DEMUXERS],
    ...['-i', `file:${inputPath}`],
    ...['-map', '0:a:0', '-vn', '-c:a', 'flac', '-compression_level', '5', ...sampleFormat],
    ...['-f', 'flac', `file:${outputPath}`],
  ];
}

async function readFacts(path: string, fieldPath: string): Promise<RawFacts> {
  let format: Awaited<ReturnType<typeof parseFile>>['format'];
  try {
    ({ format } = await parseFile(path, { duration: true, skipCovers: true }));
  } catch (error) {
    // A file system error (ENOENT, EACCES...) is the caller's problem, not the upload's.
    if (error instanceof Error && 'code' in error && typeof error.code === 'string') throw error;
    throw undecodable(fieldPath, UNDECODABLE, error);
  }
  const { sampleRate, numberOfChannels: channels, duration } = format;
  if (!sampleRate || !channels) throw undecodable(fieldPath, UNDECODABLE);
  const lossless = format.lossless === true;
  return {
    durationSeconds: duration !== undefined && Number.isFinite(duration) ? duration : null,
    sampleRate,
    bitDepth: lossless ? (format.bitsPerSample ?? null) : null,
    channels,
    codec: format.codec ?? null,
    container: format.container ?? null,
    lossless,
  };
}

function audioWarnings(source: RawFacts, output: AudioFacts): MediaWarning[] {
  const warnings: MediaWarning[] = [];
  const codec = source.codec ?? 'an unknown codec';
  if (!source.lossless) {
    warnings.push({
      code: 'audio_lossy_source',
      message: `The audio is lossy (${codec}); stores expect a lossless WAV or FLAC master.`,
    });
  }
  if (source.sampleRate < MIN_SAMPLE_RATE) {
    warnings.push({
      code: 'audio_low_sample_rate',
      message: `The audio's sample rate is ${source.sampleRate} Hz; stores expect 44100 Hz or more.`,
    });
  }
  if (source.bitDepth !== null && source.bitDepth < MIN_BIT_DEPTH) {
    warnings.push({
      code: 'audio_low_bit_depth',
      message: `The audio is ${source.bitDepth}-bit; stores expect 16 or 24 bits.`,
    });
  }
  if (source.bitDepth !== null && output.bitDepth !== null && source.bitDepth > output.bitDepth) {
    warnings.push({
      code: 'audio_bit_depth_reduced',
      message: `The audio is ${source.bitDepth}-bit; it was stored as ${output.bitDepth}-bit FLAC.`,
    });
  }
  return warnings;
}

function undecodable(fieldPath: string, message: string, cause?: unknown) {
  return mediaRejected('undecodable_audio', message, fieldPath, cause);
}
