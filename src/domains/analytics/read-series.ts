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

/**
 * Per-day and per-store sums of a window in one statement (grouping sets) over a table keyed
 * (owner, day, store): the account rollup or a release's raw rows.
 */
export async function readSeries(
  em: EntityManager,
  table: 'stream_store_days' | 'stream_days',
  owner: { column: 'account_id' | 'release_id'; id: string },
  window: Pick<DateWindow, 'fromDate' | 'toDate'>,
  storeId: number | null = null,
): Promise<Series> {
  const rows = await em.execute<Row[]>(
    `select to_char(day, 'YYYY-MM-DD') as day, store_id, sum(streams)::float8 as streams
     from ${table}
     where ${owner.column} = ? and day between ?::date and ?::date and (?::int is null or store_id = ?::int)
     group by grouping sets ((day), (store_id))`,
    [owner.id, window.fromDate, window.toDate, storeId, storeId],
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

/** How many rows and streams the window has (the preceding window of a period change). */
export async function readTotal(
  em: EntityManager,
  table: 'stream_store_days' | 'stream_days',
  owner: { column: 'account_id' | 'release_id'; id: string },
  window: Pick<DateWindow, 'fromDate' | 'toDate'>,
  storeId: number | null = null,
): Promise<{ rows: number; total: number }> {
  const [row] = await em.execute<{ rows: number; total: number }[]>(
    `select count(*)::int as rows, coalesce(sum(streams), 0)::float8 as total
     from ${table}
     where ${owner.column} = ? and day between ?::date and ?::date and (?::int is null or store_id = ?::int)`,
    [owner.id, window.fromDate, window.toDate, storeId, storeId],
  );
  return row ?? { rows: 0, total: 0 };
}
