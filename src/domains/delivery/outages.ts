import type { EntityManager } from '@mikro-orm/postgresql';
import type { StoreAdapter } from './store-adapter.ts';
import type { StoreAdapters } from './store-adapters.ts';

/** The adapters that can be out as a whole, and the select-list of their outage subqueries. */
export function outageColumns(adapters: StoreAdapters): {
  adapters: StoreAdapter[];
  sql: string;
  params: unknown[];
} {
  const outable = adapters.all.filter((adapter) => adapter.outage);
  return {
    adapters: outable,
    sql: outable.map((adapter, i) => `(${adapter.outage!.query.sql}) as outage_${i}`).join(', '),
    params: outable.flatMap((adapter) => [...adapter.outage!.query.params]),
  };
}

/** The reasons of the adapters that are out, from a row holding `outageColumns`. */
export function outagesOf(
  columns: ReturnType<typeof outageColumns>,
  row: Record<string, unknown>,
): Map<StoreAdapter, string> {
  const out = new Map<StoreAdapter, string>();
  columns.adapters.forEach((adapter, i) => {
    const reason = row[`outage_${i}`];
    if (typeof reason === 'string') out.set(adapter, reason);
  });
  return out;
}

/** The adapters out right now (one statement; none when no adapter can be out). */
export async function readOutages(
  em: EntityManager,
  adapters: StoreAdapters,
): Promise<Map<StoreAdapter, string>> {
  const columns = outageColumns(adapters);
  if (columns.adapters.length === 0) return new Map();
  const [row] = await em.execute<Record<string, unknown>[]>(`select ${columns.sql}`, columns.params);
  return outagesOf(columns, row ?? {});
}
