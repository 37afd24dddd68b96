import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays, type Day, monthOf } from './days.ts';
import { type DailyStreams, dailySeries, type Kpis, kpisOf, type StoreTotal, storeTotals } from './kpis.ts';
import { readSeries, readTotal } from './read-series.ts';
import { type DateWindow, precedingWindow } from './window.ts';

export interface TopRelease {
  releaseId: string;
  title: string | null;
  primaryArtistName: string | null;
  coverArtFileUrl: string | null;
  streamsCount: number;
}

export interface PerformanceSummary {
  fromDate: Day;
  toDate: Day;
  releases: { total: number; withDistributorId: number };
  metrics: DailyStreams[];
  kpis: Kpis;
  topStores: StoreTotal[];
  topReleases: TopRelease[];
}

/**
 * Releases by streams in the window: whole calendar months from the monthly rollup, the days at
 * either edge from the daily one, so a two-year window reads about 24 + 60 rows per release.
 */
const TOP_RELEASES = `
with parts as (
  select release_id, streams from stream_release_months
  where account_id = ? and month >= ?::date and month < ?::date
  union all
  select release_id, streams from stream_release_days
  where account_id = ? and day between ?::date and ?::date and not (day >= ?::date and day < ?::date)
), totals as (
  select release_id, sum(streams)::float8 as streams from parts group by release_id
  order by 2 desc, 1 limit ?
)
select t.release_id, t.streams, r.title, r.primary_artist_name,
       r.payload->'release'->>'cover_art_file_url' as cover_art_file_url
from totals t join releases r on r.id = t.release_id
order by t.streams desc, t.release_id`;

async function topReleases(em: EntityManager, accountId: string, window: DateWindow, limit: number) {
  const firstFull =
    monthOf(window.fromDate) === window.fromDate ? window.fromDate : nextMonth(window.fromDate);
  let endFull = monthOf(addDays(window.toDate, 1));
  // No whole month inside: every day from the daily rollup (the month range is then empty).
  if (endFull < firstFull) endFull = firstFull;
  const rows = await em.execute<
    {
      release_id: string;
      streams: number;
      title: string | null;
      primary_artist_name: string | null;
      cover_art_file_url: string | null;
    }[]
  >(TOP_RELEASES, [
    accountId,
    firstFull,
    endFull,
    accountId,
    window.fromDate,
    window.toDate,
    firstFull,
    endFull,
    limit,
  ]);
  return rows.map(
    (row): TopRelease => ({
      releaseId: row.release_id,
      title: row.title,
      primaryArtistName: row.primary_artist_name,
      coverArtFileUrl: row.cover_art_file_url,
      streamsCount: row.streams,
    }),
  );
}

const nextMonth = (day: Day) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
};

async function releaseCounts(em: EntityManager, accountId: string) {
  const [row] = await em.execute<{ total: number; with_distributor: number }[]>(
    `select count(*)::int as total,
            count(*) filter (where exists (select 1 from deliveries d where d.release_id = r.id))::int
              as with_distributor
     from releases r where r.account_id = ? and r.status = 'submitted'`,
    [accountId],
  );
  return { total: row?.total ?? 0, withDistributorId: row?.with_distributor ?? 0 };
}

/** The account's streams over a window: daily series, KPIs, top stores and top releases. */
export async function readPerformanceSummary(
  em: EntityManager,
  accountId: string,
  window: DateWindow,
  limits: { topReleases: number; topStores: number },
): Promise<PerformanceSummary> {
  const owner = { column: 'account_id', id: accountId } as const;
  const [series, prior, releases, top] = await Promise.all([
    readSeries(em, 'stream_store_days', owner, window),
    readTotal(em, 'stream_store_days', owner, precedingWindow(window)),
    releaseCounts(em, accountId),
    topReleases(em, accountId, window, limits.topReleases),
  ]);
  const stores = storeTotals(series.byStore);
  return {
    fromDate: window.fromDate,
    toDate: window.toDate,
    releases,
    metrics: dailySeries(window, series.byDay),
    kpis: kpisOf({ window, total: series.total, stores, prior, oneStore: false }),
    topStores: stores.slice(0, limits.topStores),
    topReleases: top,
  };
}
