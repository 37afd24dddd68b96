import { VIDEO_MUSIC_STORE } from '../catalog/index.ts';
import type { Day } from './days.ts';
import { type StreamSource, sandboxTrackStreams, unit } from './sandbox-streams.ts';

/** The streams of one country (ISO 3166-1 alpha-2) in a report. */
export interface CountryStreams {
  country: string;
  streams: number;
}

type Mix = Readonly<Record<string, number>>;

/** Where a global store's listeners are: roughly each country's share of the world's music streams. */
const WORLD: Mix = {
  US: 30,
  GB: 7,
  DE: 7,
  BR: 6,
  MX: 5,
  FR: 4.5,
  CA: 3.5,
  JP: 3,
  IN: 3,
  ES: 3,
  IT: 2.5,
  AU: 2.5,
  NL: 2,
  ID: 2,
  PH: 1.8,
  PL: 1.6,
  SE: 1.5,
  AR: 1.4,
  TR: 1.2,
  CO: 1.2,
  KR: 1,
  CL: 1,
  BE: 1,
  NG: 0.8,
  ZA: 0.8,
  NO: 0.8,
  AT: 0.8,
  CH: 0.8,
  DK: 0.7,
  FI: 0.6,
  PT: 0.6,
  IE: 0.6,
  NZ: 0.5,
};

/** Regional stores play where they are available (catalog ids; the rest and -1300 are global). */
const REGIONAL: Readonly<Record<number, Mix>> = {
  309: { US: 100 },
  313: { SA: 30, AE: 22, EG: 22, KW: 8, MA: 8, US: 4 },
  314: { NG: 50, GH: 16, KE: 16, ZA: 12, TZ: 6 },
  317: { IN: 86, US: 6, AE: 4, GB: 2, CA: 2 },
  323: { US: 86, CA: 6, AU: 5, NZ: 3 },
  324: { TW: 62, HK: 20, JP: 8, MY: 6, SG: 4 },
  325: { BR: 36, MX: 30, CO: 12, AR: 9, CL: 7, PE: 6 },
  326: { RU: 78, KZ: 12, BY: 10 },
  327: { KR: 100 },
  [VIDEO_MUSIC_STORE.storeId]: { ...WORLD, IN: 8, ID: 4, BR: 8 },
};

const mixOf = (storeId: number): [string, number][] => Object.entries(REGIONAL[storeId] ?? WORLD);

/**
 * Whole numbers in proportion to `weights` that sum exactly to `total` (largest remainders; ties go
 * to the earlier entry, so the result is the same on every run).
 */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const quotas = weights.map((w) => (total * w) / sum);
  const shares = quotas.map(Math.floor);
  let left = total - shares.reduce((a, s) => a + s, 0);
  const order = quotas
    .map((q, i) => ({ i, remainder: q - Math.floor(q) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/**
 * The sandbox's split of one release's streams at one store on one day (the sum of its tracks'
 * figures) across countries: the store's mix, leaning by release (each release is bigger in some
 * countries than others) and by day (±15%), in whole numbers that sum exactly to that figure.
 * Countries without a stream are left out.
 */
export function sandboxCountryStreams(source: StreamSource, day: Day): CountryStreams[] {
  const streams = sandboxTrackStreams(source, day).reduce((sum, track) => sum + track.streams, 0);
  const { releaseId, storeId } = source;
  const mix = mixOf(storeId);
  const weights = mix.map(
    ([country, weight]) =>
      weight *
      (0.6 + 0.8 * unit('country', releaseId, country)) *
      (0.85 + 0.3 * unit('country-day', releaseId, storeId, day, country)),
  );
  const shares = apportion(streams, weights);
  return mix.map(([country], i) => ({ country, streams: shares[i]! })).filter((entry) => entry.streams > 0);
}
