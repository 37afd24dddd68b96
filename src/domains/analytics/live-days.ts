import type { EntityManager } from '@mikro-orm/postgresql';
import { checkedCountries } from './countries.ts';
import { addDays, type Day, dayOf } from './days.ts';
import { readFreshness } from './ingest.ts';
import type { Series } from './read-series.ts';
import { sourcesOn } from './sources.ts';
import type { StreamReports } from './stream-reports.ts';
import type { DateWindow } from './window.ts';

export interface LiveDays {
  /** Whether any day was read from the reports. */
  live: boolean;
  rows: { day: Day; storeId: number; trackId: string; streams: number }[];
  countries: { day: Day; storeId: number; country: string; streams: number }[];
}

/**
 * Complete days of the window after the last ingested day (up to yesterday): read from the
 * distributor's reports now rather than from the tables, so a lagging ingestion never hides them.
 */
export async function liveDays(
  em: EntityManager,
  releaseId: string,
  window: DateWindow,
  storeId: number | null,
  now: Date,
  reports: StreamReports,
): Promise<LiveDays> {
  const { ingestedThrough } = await readFreshness(em);
  const start =
    ingestedThrough && ingestedThrough >= window.fromDate ? addDays(ingestedThrough, 1) : window.fromDate;
  const yesterday = addDays(dayOf(now), -1);
  const end = [window.toDate, yesterday].sort()[0]!;
  const result: LiveDays = { live: false, rows: [], countries: [] };
  if (ingestedThrough && ingestedThrough >= end) return result;
  if (start > end) return result;
  // The stores playing on the last day played on every earlier day since their own live day.
  const sources = (await sourcesOn(em, end, releaseId)).filter(
    (s) => storeId === null || s.storeId === storeId,
  );
  for (let day = start; day <= end; day = addDays(day, 1)) {
    for (const source of sources) {
      const tracks = reports.trackStreams(source, day);
      if (tracks.length === 0) continue;
      for (const track of tracks) result.rows.push({ day, storeId: source.storeId, ...track });
      const streams = tracks.reduce((sum, t) => sum + t.streams, 0);
      for (const entry of checkedCountries(source, day, streams, reports.countryStreams(source, day)))
        result.countries.push({ day, storeId: source.storeId, ...entry });
    }
  }
  return { ...result, live: true };
}

/** Adds the live rows to a series read from the tables. */
export function addLive(series: Series, rows: LiveDays['rows']) {
  for (const row of rows) {
    series.byDay.set(row.day, (series.byDay.get(row.day) ?? 0) + row.streams);
    series.byStore.set(row.storeId, (series.byStore.get(row.storeId) ?? 0) + row.streams);
    series.total += row.streams;
  }
}
