import type { EntityManager } from '@mikro-orm/postgresql';
import { type CountryTotal, countryTotals } from './countries.ts';
import type { Day } from './days.ts';
import { type DailyStreams, dailySeries, type Kpis, kpisOf, type StoreTotal, storeTotals } from './kpis.ts';
import { readAccountCountries, readAccountStoreDays } from './read-breakdowns.ts';
import { windowTotals } from './read-window-totals.ts';
import { type StoreDailySeries, storeSeriesOf } from './store-series.ts';
import { type DateWindow, precedingWindow } from './window.ts';

/** How many top releases, stores or countries a read lists: the caller picks within these bounds. */
export const TOP_LIST_SIZE = { min: 1, max: 50, default: 10 } as const;

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
  /** Read when asked: a daily series per store, the first `limit` stores and the rest summed. */
  storeSeries: (limit: number) => Promise<StoreDailySeries[]>;
  /** Read when asked: the first `limit` countries by streams. */
  topCountries: (limit: number) => Promise<CountryTotal[]>;
}

async function topReleases(em: EntityManager, accountId: string, window: DateWindow, limit: number) {
  const totals = await windowTotals(
    em,
    accountId,
    window,
    { months: 'stream_release_months', days: 'stream_release_days', owner: 'account_id', key: 'release_id' },
    limit,
  );
  if (totals.length === 0) return [];
  const rows = await em.execute<
    {
      id: string;
      title: string | null;
      primary_artist_name: string | null;
      cover_art_file_url: string | null;
    }[]
  >(
    `select id, title, primary_artist_name, payload->'release'->>'cover_art_file_url' as cover_art_file_url
     from releases where id in (select value::uuid from jsonb_array_elements_text(?::jsonb))`,
    [JSON.stringify(totals.map((t) => t.key))],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return totals.map(
    (total): TopRelease => ({
      releaseId: total.key,
      title: byId.get(total.key)?.title ?? null,
      primaryArtistName: byId.get(total.key)?.primary_artist_name ?? null,
      coverArtFileUrl: byId.get(total.key)?.cover_art_file_url ?? null,
      streamsCount: total.streams,
    }),
  );
}

async function storeTotalsOf(em: EntityManager, accountId: string, window: DateWindow) {
  const totals = await windowTotals(
    em,
    accountId,
    window,
    { months: 'stream_store_months', days: 'stream_store_days', owner: 'account_id', key: 'store_id' },
    null,
  );
  return new Map(totals.map((t) => [Number(t.key), t.streams]));
}

/** The account's streams per day of the window (one row per day from the account rollup). */
async function dailyTotals(
  em: EntityManager,
  accountId: string,
  window: Pick<DateWindow, 'fromDate' | 'toDate'>,
) {
  const rows = await em.execute<{ day: string; streams: number }[]>(
    `select to_char(day, 'YYYY-MM-DD') as day, streams::float8 as streams from stream_account_days
     where account_id = ? and day between ?::date and ?::date`,
    [accountId, window.fromDate, window.toDate],
  );
  return {
    byDay: new Map(rows.map((row) => [row.day, row.streams])),
    rows: rows.length,
    total: rows.reduce((sum, row) => sum + row.streams, 0),
  };
}

async function releaseCounts(em: EntityManager, accountId: string) {
  const [row] = await em.execute<{ total: number; with_distributor: number }[]>(
    `select count(*)::int as total,
            count(*) filter (where exists (select 1 from deliveries d where d.release_id = r.id))::int
              as with_distributor
     from releases r where r.account_id = ? and r.status = 'submitted' and not r.sandbox_sample`,
    [accountId],
  );
  return { total: row?.total ?? 0, withDistributorId: row?.with_distributor ?? 0 };
}

/**
 * The account's streams over a window: daily series, KPIs, top stores and top releases; the per-store
 * series and the countries are read when asked.
 */
export async function readPerformanceSummary(
  em: EntityManager,
  accountId: string,
  window: DateWindow,
  limits: { topReleases: number; topStores: number },
): Promise<PerformanceSummary> {
  const [series, prior, byStore, releases, top] = await Promise.all([
    dailyTotals(em, accountId, window),
    dailyTotals(em, accountId, precedingWindow(window)),
    storeTotalsOf(em, accountId, window),
    releaseCounts(em, accountId),
    topReleases(em, accountId, window, limits.topReleases),
  ]);
  const stores = storeTotals(byStore);
  return {
    fromDate: window.fromDate,
    toDate: window.toDate,
    releases,
    metrics: dailySeries(window, series.byDay),
    kpis: kpisOf({ window, total: series.total, stores, prior, oneStore: false }),
    topStores: stores.slice(0, limits.topStores),
    topReleases: top,
    storeSeries: async (limit) =>
      storeSeriesOf(window, await readAccountStoreDays(em, accountId, window), limit),
    topCountries: async (limit) => countryTotals(await readAccountCountries(em, accountId, window), limit),
  };
}
