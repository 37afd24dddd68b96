import { reportingStoreName } from '../catalog/index.ts';
import { type Day, eachDay } from './days.ts';
import type { DateWindow } from './window.ts';

export interface DailyStreams {
  eventDate: Day;
  streamsCount: number;
}

export interface StoreTotal {
  id: number;
  name: string;
  total: number;
}

export interface Kpis {
  totalStreams: number;
  avgDailyStreams: number;
  /** Against the preceding equal-length window; null when that window has no figures. */
  periodChangePct: number | null;
  /** The store with the most streams and its share 0..1; null when filtered to one store or no streams. */
  topStore: { name: string; share: number } | null;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** One entry per day of the window, zero on days without streams. */
export function dailySeries(window: DateWindow, byDay: ReadonlyMap<Day, number>): DailyStreams[] {
  return eachDay(window.fromDate, window.toDate).map((eventDate) => ({
    eventDate,
    streamsCount: byDay.get(eventDate) ?? 0,
  }));
}

/** Stores by streams, most first (ties by id). */
export function storeTotals(byStore: ReadonlyMap<number, number>): StoreTotal[] {
  return [...byStore]
    .map(([id, total]) => ({ id, name: reportingStoreName(id), total }))
    .sort((a, b) => b.total - a.total || a.id - b.id);
}

/**
 * The KPIs of a window: total, the average per day of the window (2 decimals), the change against the
 * preceding window in percent (2 decimals; null when it has no rows or no streams) and the top store.
 */
export function kpisOf(input: {
  window: DateWindow;
  total: number;
  stores: readonly StoreTotal[];
  prior: { rows: number; total: number };
  oneStore: boolean;
}): Kpis {
  const { window, total, stores, prior } = input;
  const top = stores[0];
  return {
    totalStreams: total,
    avgDailyStreams: round(total / window.days, 2),
    periodChangePct:
      prior.rows > 0 && prior.total > 0 ? round(((total - prior.total) / prior.total) * 100, 2) : null,
    topStore:
      input.oneStore || !top || total === 0 ? null : { name: top.name, share: round(top.total / total, 4) },
  };
}
