import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, invalidRequest } from '../../platform/errors.ts';
import { isReportingStore } from '../catalog/index.ts';
import { assertReleaseId, Release, releaseNotFound } from '../releases/index.ts';
import { type CountryTotal, countryTotals } from './countries.ts';
import type { Day } from './days.ts';
import { type DailyStreams, dailySeries, type Kpis, kpisOf, type StoreTotal, storeTotals } from './kpis.ts';
import { addLive, type LiveDays, liveDays } from './live-days.ts';
import { readReleaseCountries, readReleaseStoreDays } from './read-breakdowns.ts';
import { readReleaseSeries, readReleaseTotal } from './read-series.ts';
import { type StoreDailySeries, storeSeriesOf } from './store-series.ts';
import { type StreamReports, sandboxStreamReports } from './stream-reports.ts';
import { type DateWindow, precedingWindow } from './window.ts';

export const PERFORMANCE_SOURCES = ['cache', 'live'] as const;
export type PerformanceSource = (typeof PERFORMANCE_SOURCES)[number];

export interface TrackPerformance {
  trackId: string;
  trackName: string;
  artistName: string | null;
  streamsCount: number;
}

export interface ReleasePerformance {
  releaseId: string;
  fromDate: Day;
  toDate: Day;
  distributorId: number | null;
  metrics: DailyStreams[];
  kpis: Kpis;
  distributors: StoreTotal[];
  tracks: TrackPerformance[];
  source: PerformanceSource;
  /** Read when asked: a daily series per store, the first `limit` stores and the rest summed. */
  storeSeries: (limit: number) => Promise<StoreDailySeries[]>;
  /** Read when asked: the first `limit` countries by streams. */
  topCountries: (limit: number) => Promise<CountryTotal[]>;
}

/** The caller's release; another account's is 403 (the spec's word for this read), unknown is 404. */
async function ownedRelease(em: EntityManager, accountId: string, releaseId: string) {
  assertReleaseId(releaseId, 'releaseId');
  const release = await em.findOne(
    Release,
    { id: releaseId.toLowerCase() },
    { fields: ['id', 'account', 'primaryArtistName'] },
  );
  if (!release) throw releaseNotFound(releaseId);
  if (release.account.id !== accountId) {
    throw forbidden(`Release ${releaseId} does not belong to this account.`, 'release_not_owned');
  }
  return release;
}

async function trackTotals(
  em: EntityManager,
  releaseId: string,
  window: DateWindow,
  storeId: number | null,
  artistName: string | null,
  live: LiveDays['rows'],
): Promise<TrackPerformance[]> {
  const rows = await em.execute<{ id: string; title: string; streams: number }[]>(
    `select t.id, t.title, coalesce(s.streams, 0)::float8 as streams
     from release_tracks t
     left join (
       select track_id, sum(streams) as streams from stream_track_days
       where release_id = ? and day between ?::date and ?::date and (?::int is null or store_id = ?::int)
       group by track_id
     ) s on s.track_id = t.id
     where t.release_id = ?
     order by t.position`,
    [releaseId, window.fromDate, window.toDate, storeId, storeId, releaseId],
  );
  const liveByTrack = new Map<string, number>();
  for (const row of live) liveByTrack.set(row.trackId, (liveByTrack.get(row.trackId) ?? 0) + row.streams);
  return rows
    .map((row) => ({
      trackId: row.id,
      trackName: row.title,
      artistName,
      streamsCount: row.streams + (liveByTrack.get(row.id) ?? 0),
    }))
    .sort((a, b) => b.streamsCount - a.streamsCount);
}

/** One release's streams over a window, optionally at one store (`distributorId`) and per track. */
export async function readReleasePerformance(
  em: EntityManager,
  accountId: string,
  input: { releaseId: string; window: DateWindow; distributorId: number | null; includeTracks: boolean },
  options: { now: Date; reports?: StreamReports },
): Promise<ReleasePerformance> {
  const { window, distributorId } = input;
  if (distributorId !== null && !isReportingStore(distributorId)) {
    const message = `${distributorId} is not a store id (see get_distribution_stores; -1300 is the video-music platform)`;
    throw invalidRequest(`distributorId: ${message}`, [{ path: 'distributorId', message }], 'unknown_store');
  }
  const release = await ownedRelease(em, accountId, input.releaseId);
  const [series, prior, live] = await Promise.all([
    readReleaseSeries(em, release.id, window, distributorId),
    readReleaseTotal(em, release.id, precedingWindow(window), distributorId),
    liveDays(em, release.id, window, distributorId, options.now, options.reports ?? sandboxStreamReports),
  ]);
  addLive(series, live.rows);
  const stores = storeTotals(series.byStore);
  return {
    releaseId: release.id,
    fromDate: window.fromDate,
    toDate: window.toDate,
    distributorId,
    metrics: dailySeries(window, series.byDay),
    kpis: kpisOf({ window, total: series.total, stores, prior, oneStore: distributorId !== null }),
    distributors: stores,
    tracks: input.includeTracks
      ? await trackTotals(em, release.id, window, distributorId, release.primaryArtistName ?? null, live.rows)
      : [],
    source: live.live ? 'live' : 'cache',
    storeSeries: async (limit) => {
      const stored = await readReleaseStoreDays(em, release.id, window, distributorId);
      return storeSeriesOf(window, [...stored, ...live.rows], limit);
    },
    topCountries: async (limit) => {
      const byCountry = await readReleaseCountries(em, release.id, window, distributorId);
      for (const row of live.countries)
        byCountry.set(row.country, (byCountry.get(row.country) ?? 0) + row.streams);
      return countryTotals(byCountry, limit);
    },
  };
}
