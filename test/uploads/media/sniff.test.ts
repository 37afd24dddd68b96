import { copyFile } from 'node:fs/promises';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertKind, type SniffedFile, sniffFile } from '../../../src/domains/uploads/media/index.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { ffmpeg, noise, sine, useTempDir, writeBytes } from './fixtures.ts';

describe('sniffFile: the kind of an upload comes from its content, never its name', () => {
  const tmp = useTempDir();
  const red = { r: 200, g: 30, b: 30 };

  beforeAll(async () => {
    const image = sharp({ create: { width: 64, height: 48, channels: 3, background: red } });
    await image.clone().png().toFile(tmp.file('image.png'));
    await image.clone().jpeg().toFile(tmp.file('image.jpg'));
    await image.clone().webp().toFile(tmp.file('image.webp'));
    await copyFile(tmp.file('image.png'), tmp.file('png-bytes.mp3'));
    await sine(tmp.file('tone.wav'), ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le'], 1);
    await copyFile(tmp.file('tone.wav'), tmp.file('wav-bytes.png'));
    await sine(tmp.file('tone.mp3'), ['-c:a', 'libmp3lame'], 1);
    await sine(tmp.file('tone.flac'), ['-c:a', 'flac'], 1);
    await sine(tmp.file('tone.m4a'), ['-c:a', 'aac'], 1);
    await sine(tmp.file('tone.ogg'), ['-c:a', 'libvorbis'], 1);
    await sine(tmp.file('tone.aiff'), ['-c:a', 'pcm_s16be'], 1);
    await sine(tmp.file('audio-only.mp4'), ['-c:a', 'aac', '-f', 'mp4'], 1);
    await ffmpeg(
      ...['-f', 'lavfi', '-i', 'testsrc=duration=1:size=64x64', '-f', 'lavfi', '-i', 'sine=duration=1'],
      ...['-c:v', 'libx264', '-c:a', 'aac', '-shortest', tmp.file('video.mp4')],
    );
    await writeBytes(
      tmp.file('document.pdf'),
      '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj <<>> endobj\n%%EOF\n',
    );
    await writeBytes(tmp.file('notes.wav'), 'hello, this is a text file wearing a .wav name\n');
    await writeBytes(tmp.file('noise.bin'), noise(4096));
  });

  it.each([
    ['image.png', 'image', 'image/png', 'png'],
    ['image.jpg', 'image', 'image/jpeg', 'jpg'],
    ['image.webp', 'image', 'image/webp', 'webp'],
    ['tone.wav', 'audio', 'audio/wav', 'wav'],
    ['tone.mp3', 'audio', 'audio/mpeg', 'mp3'],
    ['tone.flac', 'audio', 'audio/flac', 'flac'],
    ['tone.m4a', 'audio', 'audio/x-m4a', 'm4a'],
    ['tone.ogg', 'audio', 'audio/ogg', 'ogg'],
    ['tone.aiff', 'audio', 'audio/aiff', 'aif'],
    ['audio-only.mp4', 'audio', 'video/mp4', 'mp4'],
    ['video.mp4', 'other', 'video/mp4', 'mp4'],
    ['document.pdf', 'other', 'application/pdf', 'pdf'],
    ['notes.wav', 'other', null, null],
    ['noise.bin', 'other', null, null],
  ])('%s is %s (%s)', async (name, kind, mime, ext) => {
    expect(await sniffFile(tmp.file(name))).toEqual({ kind, mime, ext });
  });

  it('ignores the file name: PNG bytes named .mp3 are an image, WAV bytes named .png are audio', async () => {
    expect(await sniffFile(tmp.file('png-bytes.mp3'))).toEqual({
      kind: 'image',
      mime: 'image/png',
      ext: 'png',
    });
    expect(await sniffFile(tmp.file('wav-bytes.png'))).toEqual({
      kind: 'audio',
      mime: 'audio/wav',
      ext: 'wav',
    });
  });
});

describe('assertKind', () => {
  const png: SniffedFile = { kind: 'image', mime: 'image/png', ext: 'png' };
  const wav: SniffedFile = { kind: 'audio', mime: 'audio/wav', ext: 'wav' };
  const pdf: SniffedFile = { kind: 'other', mime: 'application/pdf', ext: 'pdf' };
  const unknown: SniffedFile = { kind: 'other', mime: null, ext: null };

  function rejection(sniffed: SniffedFile, field: 'coverArt' | 'audio', fieldPath?: string): AppError {
    try {
      assertKind(sniffed, field, fieldPath);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    }
    throw new Error('assertKind did not throw');
  }

  it('accepts an image for coverArt and audio for audio', () => {
    expect(() => assertKind(png, 'coverArt', 'coverArt')).not.toThrow();
    expect(() => assertKind(wav, 'audio', 'audio')).not.toThrow();
  });

  it('rejects anything else with a 422 unsupported_file_type naming the field and what was found', () => {
    const error = rejection(pdf, 'coverArt', 'release.coverArt');
    expect(error.type).toBe('validation_error');
    expect(error.code).toBe('unsupported_file_type');
    expect(error.message).toBe('expected an image for coverArt, got application/pdf');
    expect(error.details).toEqual([{ path: 'release.coverArt', message: error.message }]);

    expect(rejection(png, 'audio', 'tracks[0].audio').message).toBe(
      'expected audio for audio, got image/png',
    );
    expect(rejection(png, 'audio', 'tracks[0].audio').details?.[0]?.path).toBe('tracks[0].audio');
    expect(rejection(wav, 'coverArt').message).toBe('expected an image for coverArt, got audio/wav');
    expect(rejection(unknown, 'audio').message).toBe(
      'expected audio for audio, got content of an unrecognised type',
    );
    expect(rejection(unknown, 'audio').details).toEqual([
      { path: 'audio', message: 'expected audio for audio, got content of an unrecognised type' },
    ]);
  });
});
