import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ffmpegPath,
  probeAudio,
  sniffFile,
  transcodeToFlac,
} from '../../../src/domains/uploads/media/index.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { ffmpeg, ffmpegToPipe, noise, sine, useTempDir, writeBytes } from './fixtures.ts';

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('audio probing and FLAC transcoding', () => {
  const tmp = useTempDir();

  beforeAll(async () => {
    await Promise.all([
      sine(tmp.file('s16.wav'), ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le']),
      sine(tmp.file('s24.wav'), ['-ar', '48000', '-ac', '2', '-c:a', 'pcm_s24le']),
      sine(tmp.file('s32.wav'), ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_s32le']),
      sine(tmp.file('u8.wav'), ['-ar', '22050', '-ac', '1', '-c:a', 'pcm_u8']),
      sine(tmp.file('lossy.mp3'), ['-ar', '44100', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '192k']),
      sine(tmp.file('lossy.ogg'), ['-ar', '44100', '-ac', '2', '-c:a', 'libvorbis']),
      // Streamed FLAC: the header states no length, so the duration is only known once decoded.
      ffmpegToPipe(...['-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'flac', '-f', 'flac']).then((bytes) =>
        writeBytes(tmp.file('piped.flac'), bytes),
      ),
      sine(tmp.file('tiny.wav'), ['-ar', '44100', '-ac', '1', '-c:a', 'pcm_s16le'], 0.0001),
    ]);
  });

  it('probes a 16-bit 44.1 kHz stereo WAV', async () => {
    const facts = await probeAudio(tmp.file('s16.wav'));
    expect(facts).toEqual({
      durationSeconds: expect.closeTo(2, 2),
      sampleRate: 44100,
      bitDepth: 16,
      channels: 2,
      codec: 'PCM',
      container: 'WAVE',
      lossless: true,
    });
  });

  it('probes a lossy MP3: no bit depth, not lossless', async () => {
    const facts = await probeAudio(tmp.file('lossy.mp3'));
    expect(facts).toMatchObject({ sampleRate: 44100, channels: 2, bitDepth: null, lossless: false });
    expect(facts.codec).toMatch(/layer 3/i);
    expect(facts.durationSeconds).toBeCloseTo(2, 1);
  });

  it('transcodes a 16-bit WAV to a 16-bit FLAC of the same length, without warnings', async () => {
    const out = tmp.file('s16.flac');
    const result = await transcodeToFlac(tmp.file('s16.wav'), out);
    expect(result.warnings).toEqual([]);
    expect(result.source).toMatchObject({ sampleRate: 44100, bitDepth: 16, channels: 2, lossless: true });
    expect(result.facts).toMatchObject({
      sampleRate: 44100,
      bitDepth: 16,
      channels: 2,
      codec: 'FLAC',
      container: 'FLAC',
      lossless: true,
    });
    expect(Math.abs(result.facts.durationSeconds - result.source.durationSeconds)).toBeLessThan(0.1);
    expect(await probeAudio(out)).toEqual(result.facts);
    expect(await sniffFile(out)).toEqual({ kind: 'audio', mime: 'audio/flac', ext: 'flac' });
  });

  it('keeps 24 bits and 48 kHz', async () => {
    const result = await transcodeToFlac(tmp.file('s24.wav'), tmp.file('s24.flac'));
    expect(result.source).toMatchObject({ sampleRate: 48000, bitDepth: 24, lossless: true });
    expect(result.facts).toMatchObject({ sampleRate: 48000, bitDepth: 24, channels: 2, codec: 'FLAC' });
    expect(result.facts.durationSeconds).toBeCloseTo(2, 1);
    expect(result.warnings).toEqual([]);
  });

  it('stores 32-bit sources as 24-bit FLAC, with a warning', async () => {
    const result = await transcodeToFlac(tmp.file('s32.wav'), tmp.file('s32.flac'));
    expect([result.source.bitDepth, result.facts.bitDepth]).toEqual([32, 24]);
    expect(result.warnings.map((w) => w.code)).toEqual(['audio_bit_depth_reduced']);
  });

  it.each([
    ['lossy.mp3', 'MPEG'],
    ['lossy.ogg', 'Ogg'],
  ])('transcodes a lossy %s with an audio_lossy_source warning', async (name, container) => {
    const result = await transcodeToFlac(tmp.file(name), tmp.file(`${name}.flac`));
    expect(result.source).toMatchObject({ container, lossless: false, bitDepth: null });
    expect(result.warnings.map((w) => w.code)).toEqual(['audio_lossy_source']);
    expect(result.facts).toMatchObject({ codec: 'FLAC', lossless: true, bitDepth: 16, sampleRate: 44100 });
    expect(Math.abs(result.facts.durationSeconds - result.source.durationSeconds)).toBeLessThan(0.1);
  });

  it('warns about a low sample rate and a low bit depth (8-bit 22.05 kHz)', async () => {
    const result = await transcodeToFlac(tmp.file('u8.wav'), tmp.file('u8.flac'));
    expect(result.warnings.map((w) => w.code)).toEqual(['audio_low_sample_rate', 'audio_low_bit_depth']);
    expect(result.facts).toMatchObject({ sampleRate: 22050, bitDepth: 16, channels: 1 });
  });

  it('takes the duration from the decoded audio when the source does not state it', async () => {
    await expect(probeAudio(tmp.file('piped.flac'))).rejects.toMatchObject({ code: 'undecodable_audio' });
    const result = await transcodeToFlac(tmp.file('piped.flac'), tmp.file('piped-out.flac'));
    expect(result.source.durationSeconds).toBeCloseTo(2, 1);
    expect(result.facts.durationSeconds).toBeCloseTo(2, 1);
    expect(result.warnings).toEqual([]);
  });

  describe('undecodable audio is a 422 undecodable_audio and leaves nothing behind', () => {
    beforeAll(async () => {
      const wav = await readFile(tmp.file('s16.wav'));
      const flac = await readFile(tmp.file('s16.flac'));
      await Promise.all([
        writeBytes(tmp.file('text.wav'), 'hello, this is a text file wearing a .wav name\n'),
        writeBytes(tmp.file('noise.wav'), noise(64 * 1024)),
        writeBytes(tmp.file('cut-header.wav'), wav.subarray(0, 30)),
        // The FLAC headers survive; every frame after them is noise.
        writeBytes(tmp.file('corrupt.flac'), Buffer.concat([flac.subarray(0, 200), noise(64 * 1024, 7)])),
        // Half the frames are gone: decodes, but to half the stated length.
        writeBytes(tmp.file('truncated.flac'), flac.subarray(0, Math.floor(flac.length / 2))),
      ]);
    });

    const cases = [
      ['text.wav', 'a text file named .wav'],
      ['noise.wav', 'random bytes'],
      ['cut-header.wav', 'a WAV cut inside its header'],
      ['corrupt.flac', 'a FLAC whose frames are noise'],
      ['truncated.flac', 'a FLAC missing half its frames'],
      ['tiny.wav', 'a WAV of zero (rounded) duration'],
    ] as const;

    it.each(cases)('%s (%s)', async (name) => {
      const out = tmp.file(`${name}.out.flac`);
      await writeBytes(out, 'left over from an earlier attempt');
      const error = await rejection(transcodeToFlac(tmp.file(name), out, { fieldPath: 'tracks[0].audio' }));
      expect([error.type, error.code]).toEqual(['validation_error', 'undecodable_audio']);
      expect(error.details).toEqual([{ path: 'tracks[0].audio', message: error.message }]);
      expect(existsSync(out)).toBe(false);
    });

    it('says so clearly', async () => {
      const error = await rejection(transcodeToFlac(tmp.file('text.wav'), tmp.file('text.out.flac')));
      expect(error.message).toBe('The file could not be decoded as audio.');
      expect(error.details?.[0]?.path).toBe('audio');
      const truncated = await rejection(transcodeToFlac(tmp.file('truncated.flac'), tmp.file('t.out.flac')));
      expect(truncated.message).toMatch(/damaged or truncated: only \d\.\d s of 2\.0 s could be decoded/);
    });

    it('probeAudio rejects the same way', async () => {
      for (const name of ['text.wav', 'noise.wav', 'cut-header.wav', 'tiny.wav']) {
        const error = await rejection(probeAudio(tmp.file(name)));
        expect(error.code).toBe('undecodable_audio');
      }
    });
  });
});

describe('ffmpegPath', () => {
  const original = process.env.FFMPEG_PATH;
  afterEach(() => {
    if (original === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = original;
  });

  it('is the binary shipped in @ffmpeg-installer/ffmpeg unless FFMPEG_PATH overrides it', async () => {
    delete process.env.FFMPEG_PATH;
    expect(ffmpegPath()).toMatch(/@ffmpeg-installer[/\\][^/\\]+[/\\]ffmpeg(\.exe)?$/);
    await ffmpeg('-version');
    process.env.FFMPEG_PATH = '/opt/custom/ffmpeg';
    expect(ffmpegPath()).toBe('/opt/custom/ffmpeg');
  });
});
