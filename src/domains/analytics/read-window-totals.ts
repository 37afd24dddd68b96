import type { EntityManager } from '@mikro-orm/postgresql';
import type { DateWindow } from './window.ts';
import { partsSql, type RollupPair, windowParts } from './window-parts.ts';

type Totals = { key: string; streams: number }[];

/** Sums per key over the window from a pair of rollups (see windowParts), most streams first. */
export async function windowTotals(
  em: EntityManager,
  ownerId: string,
  window: DateWindow,
  tables: RollupPair,
  limit: number | null,
): Promise<Totals> {
  const { sql, params } = partsSql(windowParts(window.fromDate, window.toDate), tables, ownerId);
  return em.execute<Totals>(
    `select key::text as key, sum(streams)::float8 as streams from (${sql}) parts
     group by key having sum(streams) <> 0 order by 2 desc, 1 ${limit === null ? '' : 'limit ?'}`,
    limit === null ? params : [...params, limit],
  );
}
