/**
 * The DDEX release profile (ERN 4.3 Part 2) a release is sent under, and its ReleaseType.
 *
 * - One track: `SimpleAudioSingle` (one primary SoundRecording, no TrackRelease, deals on the
 *   main release).
 * - More tracks: `Audio` (the main release plus one TrackRelease per track, each with its own deals).
 *
 * The type follows the stores' usual lengths: an `Album` from 7 tracks or 30 minutes; an `EP` from 4
 * tracks or when a track lasts 10 minutes or more; a `Single` otherwise.
 */
export type ReleaseProfileId = 'SimpleAudioSingle' | 'Audio';
export type ReleaseTypeName = 'Single' | 'EP' | 'Album';

export interface ReleaseProfile {
  id: ReleaseProfileId;
  releaseType: ReleaseTypeName;
  trackReleases: boolean;
}

const ALBUM_TRACKS = 7;
const EP_TRACKS = 4;
const ALBUM_SECONDS = 30 * 60;
const LONG_TRACK_SECONDS = 10 * 60;

export function releaseTypeOf(durations: readonly number[]): ReleaseTypeName {
  const total = durations.reduce((sum, seconds) => sum + seconds, 0);
  if (durations.length >= ALBUM_TRACKS || total >= ALBUM_SECONDS) return 'Album';
  if (durations.length >= EP_TRACKS || durations.some((seconds) => seconds >= LONG_TRACK_SECONDS))
    return 'EP';
  return 'Single';
}

export function releaseProfileOf(durations: readonly number[]): ReleaseProfile {
  const single = durations.length === 1;
  return {
    id: single ? 'SimpleAudioSingle' : 'Audio',
    releaseType: releaseTypeOf(durations),
    trackReleases: !single,
  };
}
