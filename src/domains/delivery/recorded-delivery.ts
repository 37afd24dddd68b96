import type { EntityManager } from '@mikro-orm/postgresql';
import { assertReleaseId, releaseNotFound, releaseNotOwned } from '../releases/find-release.ts';
import type { AggregateStatus } from '../releases/release.entity.ts';
import { GLOBAL_CONTROL_ID } from './adapters/sandbox/sandbox-control.ts';
import type { DeliveryStatus } from './delivery.entity.ts';
import type { ReleaseDeliveryStatus, StoreStatus } from './distributor.ts';
import type { JobState } from './release-job.entity.ts';
import { storeNameOf } from './status-text.ts';

/** What the rows say of a release's delivery: the status read's whole input, read in one statement. */
export interface RecordedDelivery {
  releaseId: string;
  accountId: string;
  aggregateStatus: AggregateStatus | null;
  /** The release job's state; null before submission. */
  jobState: JobState | null;
  stores: StoreStatus[];
  /** Why the sandbox distributor is switched offline; null while it is online. */
  sandboxOutage: string | null;
}

interface Row {
  account_id: string;
  aggregate_status: AggregateStatus | null;
  job_state: JobState | null;
  offline: boolean | null;
  offline_reason: string | null;
  stores: { storeId: number; status: DeliveryStatus; statusText: string; urlInStore: string | null }[];
}

// Only the short columns the answer carries: never the DDEX messages or the release payload.
const READ = `
select r.account_id, r.aggregate_status,
  (select j.state from release_jobs j where j.release_id = r.id) as job_state,
  c.offline, c.offline_reason,
  coalesce((select json_agg(json_build_object('storeId', d.store_id, 'status', d.status,
      'statusText', d.status_text, 'urlInStore', d.url_in_store) order by d.store_id)
    from deliveries d where d.release_id = r.id), '[]'::json) as stores
from releases r left join sandbox_controls c on c.id = ?
where r.id = ?`;

/**
 * The caller's release's recorded delivery, in one statement. Malformed, unknown and another account's
 * ids answer as findOwnedRelease does (400 invalid_release_id, 404 release_not_found / release_not_owned).
 */
export async function readRecordedDelivery(
  em: EntityManager,
  accountId: string,
  releaseId: string,
  field = 'release_id',
): Promise<RecordedDelivery> {
  assertReleaseId(releaseId, field);
  const id = releaseId.toLowerCase();
  const [row] = await em.getConnection().execute<Row[]>(READ, [GLOBAL_CONTROL_ID, id]);
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
    sandboxOutage: row.offline ? (row.offline_reason ?? 'unreachable') : null,
  };
}

/** The statuses as the rows hold them: `queued` (pending) until the distributor has moved a store. */
export function recordedStatuses(recorded: RecordedDelivery): ReleaseDeliveryStatus {
  if (!recorded.jobState || recorded.jobState === 'queued')
    return { aggregateStatus: 'queued', pending: true, stores: recorded.stores };
  return { aggregateStatus: recorded.aggregateStatus ?? 'queued', pending: false, stores: recorded.stores };
}
