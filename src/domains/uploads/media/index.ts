export {
  type AudioFacts,
  type AudioOptions,
  probeAudio,
  type TranscodedAudio,
  type TranscodeOptions,
  transcodeToFlac,
} from './audio.ts';
export {
  COVER_ART_SIZE,
  DEFAULT_MAX_COVER_INPUT_PIXELS,
  type NormaliseCoverArtOptions,
  type NormalisedCoverArt,
  normaliseCoverArt,
} from './cover-art.ts';
export { ffmpegPath } from './ffmpeg.ts';
export { assertKind, type MediaField, type SniffedFile, type SniffedKind, sniffFile } from './sniff.ts';
export type { MediaWarning } from './warnings.ts';
