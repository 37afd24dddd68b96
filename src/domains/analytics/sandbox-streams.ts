import { VIDEO_MUSIC_STORE } from '../catalog/index.ts';
import { type Day, daysBetween, weekdayOf } from './days.ts';

/** A release live at a store, as the streaming reports see it. */
export interface StreamSource {
  accountId: string;
  releaseId: string;
  storeId: number;
  /** The release's first live day anywhere: its release-day peak. */
  releaseDay: Day;
  /** The first day this store reports streams for the release. */
  liveDay: Day;
  /** The release's track ids, in track order. */
  trackIds: readonly string[];
}

export interface TrackStreams {
  trackId: string;
  streams: number;
}

/**
 * The sandbox's streaming reports: deterministic figures seeded by release, store and day (and track),
 * so a re-run writes the same numbers. The shape follows real catalogues: a release-day peak that
 * decays over weeks into a long tail, a weekly rhythm (Friday releases, weekend listening), each
 * release's own popularity and each store's own share of it.
 */
const STORE_WEIGHTS: Record<number, number> = {
  301: 0.34,
  302: 0.15,
  304: 0.08,
  305: 0.06,
  306: 0.04,
  308: 0.02,
  309: 0.03,
  310: 0.04,
  311: 0.03,
  312: 0.02,
  319: 0.08,
  [VIDEO_MUSIC_STORE.storeId]: 0.11,
};
const OTHER_STORE_WEIGHT = 0.01;

/** Sunday … Saturday. */
const WEEKDAY = [1.08, 0.88, 0.9, 0.94, 0.97, 1.12, 1.15];

/** FNV-1a over the parts: a uniform number in [0, 1), the same on every run and machine. */
export function unit(...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = parts.join('|');
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return (hash >>> 0) / 2 ** 32;
}

/** Peak daily streams of a release over all stores: most releases are small, a few are large. */
function popularity(releaseId: string): number {
  return 40 + 2400 * unit('popularity', releaseId) ** 3;
}

/**
 * Release day is the peak (a launch boost larger than any weekday and noise swing can make up), then
 * about a third of day one after two weeks, then a slow tail that never quite stops.
 */
function decay(age: number): number {
  const launch = age === 0 ? 2.2 : 1;
  return launch * (0.08 + 0.82 * Math.exp(-age / 9) + 0.2 * Math.exp(-age / 120));
}

/** The streams of every track of a source on one day (nothing before the store's live day). */
export function sandboxTrackStreams(source: StreamSource, day: Day): TrackStreams[] {
  if (day < source.liveDay) return [];
  const { releaseId, storeId } = source;
  const share =
    (STORE_WEIGHTS[storeId] ?? OTHER_STORE_WEIGHT) * (0.6 + 0.8 * unit('share', releaseId, storeId));
  const noise = 0.8 + 0.4 * unit('day', releaseId, storeId, day);
  const expected =
    popularity(releaseId) *
    share *
    decay(Math.max(0, daysBetween(source.releaseDay, day))) *
    WEEKDAY[weekdayOf(day)]! *
    noise;
  const trackIds = source.trackIds.length > 0 ? source.trackIds : [releaseId];
  const weights = trackIds.map((id, i) => (1 / (i + 1)) * (0.5 + unit('track', releaseId, id)));
  const total = weights.reduce((sum, w) => sum + w, 0);
  return trackIds.map((trackId, i) => ({
    trackId,
    streams: Math.round((expected * weights[i]!) / total),
  }));
}
