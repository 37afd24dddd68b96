import { reportingStoreName } from '../catalog/index.ts';
import type { Day } from './days.ts';
import { type DailyStreams, dailySeries } from './kpis.ts';
import type { DateWindow } from './window.ts';

/** One store's streams on each day of a window, or the other stores' summed. */
export interface StoreDailySeries {
  /** null for the series of the other stores. */
  storeId: number | null;
  storeName: string;
  total: number;
  days: DailyStreams[];
}

export const OTHER_STORES_NAME = 'Other stores';

/** A store's streams on one day (several rows of one store and day add up). */
export interface StoreDay {
  day: Day;
  storeId: number;
  streams: number;
}

/**
 * A series per store with streams in the window, most streams first (ties by id), each listing every
 * day of the window (zero on days without streams). Past the first `limit` stores, the rest are summed
 * into one last series, storeId null, so the series of a day always add up to that day's total.
 */
export function storeSeriesOf(
  window: DateWindow,
  rows: Iterable<StoreDay>,
  limit: number,
): StoreDailySeries[] {
  const byStore = new Map<number, { total: number; byDay: Map<Day, number> }>();
  for (const row of rows) {
    const store = byStore.get(row.storeId) ?? { total: 0, byDay: new Map() };
    store.total += row.streams;
    store.byDay.set(row.day, (store.byDay.get(row.day) ?? 0) + row.streams);
    byStore.set(row.storeId, store);
  }
  const ranked = [...byStore]
    .filter(([, store]) => store.total !== 0)
    .sort(([a, x], [b, y]) => y.total - x.total || a - b);
  const series: StoreDailySeries[] = ranked.slice(0, limit).map(([storeId, store]) => ({
    storeId,
    storeName: reportingStoreName(storeId),
    total: store.total,
    days: dailySeries(window, store.byDay),
  }));
  const rest = ranked.slice(limit);
  if (rest.length > 0) {
    const byDay = new Map<Day, number>();
    for (const [, store] of rest)
      for (const [day, streams] of store.byDay) byDay.set(day, (byDay.get(day) ?? 0) + streams);
    series.push({
      storeId: null,
      storeName: OTHER_STORES_NAME,
      total: rest.reduce((sum, [, store]) => sum + store.total, 0),
      days: dailySeries(window, byDay),
    });
  }
  return series;
}
