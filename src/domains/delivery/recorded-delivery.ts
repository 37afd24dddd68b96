import type { EntityManager } from '@mikro-orm/postgresql';
import type { AggregateStatus } from '../releases/index.ts';
import { assertReleaseId, releaseNotFound, releaseNotOwned } from '../releases/index.ts';
import type { DeliveryStatus } from './delivery.entity.ts';
import type { RecordedDelivery, ReleaseDeliveryStatus } from './distributor.ts';
import { outageColumns, outagesOf } from './outages.ts';
import type { JobState } from './release-job.entity.ts';
import { storeNameOf } from './status-text.ts';
import type { StoreAdapter } from './store-adapter.ts';
import type { StoreAdapters } from './store-adapters.ts';

type Row = {
  account_id: string;
  aggregate_status: AggregateStatus | null;
  job_state: JobState | null;
  stores: { storeId: number; status: DeliveryStatus; statusText: string; urlInStore: string | null }[];
};

// Only the short columns the answer carries: never the DDEX messages or the release payload. The
// adapters' outage subqueries ride along, so the read stays one statement.
const read = (outages: string) => `
select r.account_id, r.aggregate_status,
  (select j.state from release_jobs j where j.release_id = r.id) as job_state,
  coalesce((select json_agg(json_build_object('storeId', d.store_id, 'status', d.status,
      'statusText', d.status_text, 'urlInStore', d.url_in_store) order by d.store_id)
    from deliveries d where d.release_id = r.id), '[]'::json) as stores${outages ? `,\n  ${outages}` : ''}
from releases r
where r.id = ?`;

/**
 * The caller's release's recorded delivery, in one statement. Malformed, unknown and another account's
 * ids answer as findOwnedRelease does (400 invalid_release_id, 404 release_not_found / release_not_owned).
 */
export async function readRecordedDelivery(
  em: EntityManager,
  adapters: StoreAdapters,
  accountId: string,
  releaseId: string,
  field = 'release_id',
): Promise<RecordedDelivery> {
  assertReleaseId(releaseId, field);
  const id = releaseId.toLowerCase();
  const columns = outageColumns(adapters);
  const [row] = await em.getConnection().execute<Row[]>(read(columns.sql), [...columns.params, id]);
  if (!row) throw releaseNotFound(releaseId);
  if (row.account_id !== accountId) throw releaseNotOwned(releaseId);
  return {
    releaseId: id,
    accountId,
    aggregateStatus: row.aggregate_status,
    jobState: row.job_state,
    stores: row.stores.map((store) => ({
      storeId: store.storeId,
      storeName: storeNameOf(store.storeId),
      status: store.status,
      statusText: store.statusText,
      urlInStore: store.status === 'live' ? store.urlInStore : null,
    })),
    outage: outageOf(adapters, outagesOf(columns, row), row.stores),
  };
}

/** The first reason of an adapter that is out and delivers to one of these stores (any, with no store). */
function outageOf(
  adapters: StoreAdapters,
  outages: ReadonlyMap<StoreAdapter, string>,
  stores: readonly { storeId: number }[],
): string | null {
  const serving = stores.length > 0 ? new Set(stores.map((s) => adapters.forStore(s.storeId))) : null;
  for (const [adapter, reason] of outages) if (!serving || serving.has(adapter)) return reason;
  return null;
}

/** The statuses as the rows hold them: `queued` (pending) until the distributor has moved a store. */
export function recordedStatuses(recorded: RecordedDelivery): ReleaseDeliveryStatus {
  if (!recorded.jobState || recorded.jobState === 'queued')
    return { aggregateStatus: 'queued', pending: true, stores: recorded.stores };
  return { aggregateStatus: recorded.aggregateStatus ?? 'queued', pending: false, stores: recorded.stores };
}
