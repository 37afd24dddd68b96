export { probeAudio, transcodeToFlac } from './audio.ts';
export { DEFAULT_MAX_COVER_INPUT_PIXELS, normaliseCoverArt } from './cover-art.ts';
export { ffmpegPath } from './ffmpeg.ts';
export { assertKind, type SniffedFile, sniffFile } from './sniff.ts';
