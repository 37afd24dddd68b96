import type { EntityManager } from '@mikro-orm/postgresql';
import type { Day } from './days.ts';
import type { DateWindow } from './window.ts';

export interface Series {
  byDay: Map<Day, number>;
  byStore: Map<number, number>;
  total: number;
}

interface Row {
  day: string | null;
  store_id: number | null;
  streams: number;
}

/** A release's per-day and per-store sums over a window in one statement (grouping sets over its raw rows). */
export async function readReleaseSeries(
  em: EntityManager,
  releaseId: string,
  window: Pick<DateWindow, 'fromDate' | 'toDate'>,
  storeId: number | null,
): Promise<Series> {
  const rows = await em.execute<Row[]>(
    `select to_char(day, 'YYYY-MM-DD') as day, store_id, sum(streams)::float8 as streams
     from stream_days
     where release_id = ? and day between ?::date and ?::date and (?::int is null or store_id = ?::int)
     group by grouping sets ((day), (store_id))`,
    [releaseId, window.fromDate, window.toDate, storeId, storeId],
  );
  const series: Series = { byDay: new Map(), byStore: new Map(), total: 0 };
  for (const row of rows) {
    if (row.day !== null) {
      series.byDay.set(row.day, row.streams);
      series.total += row.streams;
    } else if (row.store_id !== null) series.byStore.set(row.store_id, row.streams);
  }
  return series;
}

/** How many raw rows and streams a release has in a window (the preceding window of a period change). */
export async function readReleaseTotal(
  em: EntityManager,
  releaseId: string,
  window: Pick<DateWindow, 'fromDate' | 'toDate'>,
  storeId: number | null,
): Promise<{ rows: number; total: number }> {
  const [row] = await em.execute<{ rows: number; total: number }[]>(
    `select count(*)::int as rows, coalesce(sum(streams), 0)::float8 as total
     from stream_days
     where release_id = ? and day between ?::date and ?::date and (?::int is null or store_id = ?::int)`,
    [releaseId, window.fromDate, window.toDate, storeId, storeId],
  );
  return row ?? { rows: 0, total: 0 };
}
