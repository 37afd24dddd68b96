import type { EntityManager } from '@mikro-orm/postgresql';
import { runSql } from '../../platform/db/direct-sql.ts';
import type { DeliveryStatus } from './delivery.entity.ts';

/** A release's stores by where each stands; every store is in exactly one of the four. */
export interface StoreCounts {
  total: number;
  live: number;
  inDelivery: number;
  failed: number;
  takenDown: number;
}

type Bucket = Exclude<keyof StoreCounts, 'total'>;

/**
 * Where each per-store status counts. A store whose takedown is requested counts as what it was when
 * it was asked (live, unless it had not got there), as the aggregate status reads it: a pending
 * takedown moves nothing until the store confirms.
 */
const BUCKET_OF: Record<Exclude<DeliveryStatus, 'takedown_requested'>, Bucket> = {
  queued: 'inDelivery',
  in_inspection: 'inDelivery',
  delivered: 'inDelivery',
  live: 'live',
  taken_down: 'takenDown',
  rejected: 'failed',
  failed: 'failed',
};

function bucketOf(status: DeliveryStatus, before: DeliveryStatus | null): Bucket {
  if (status !== 'takedown_requested') return BUCKET_OF[status];
  return !before || before === 'takedown_requested' ? 'live' : BUCKET_OF[before];
}

type Row = { release_id: string; status: DeliveryStatus; before: DeliveryStatus | null; stores: number };

const empty = (): StoreCounts => ({ total: 0, live: 0, inDelivery: 0, failed: 0, takenDown: 0 });

/** The store counts of each release, in the order asked (zeros for a release without stores): one statement. */
export async function storeCountsOf(
  em: EntityManager,
  releaseIds: readonly string[],
): Promise<StoreCounts[]> {
  if (releaseIds.length === 0) return [];
  const rows = await runSql<Row>(
    em,
    `select release_id, status, status_before_takedown as before, count(*)::int as stores
       from deliveries where release_id = any($1::uuid[])
      group by release_id, status, status_before_takedown`,
    [releaseIds],
  );
  const counts = new Map<string, StoreCounts>();
  for (const row of rows) {
    const of = counts.get(row.release_id) ?? empty();
    of[bucketOf(row.status, row.before)] += row.stores;
    of.total += row.stores;
    counts.set(row.release_id, of);
  }
  return releaseIds.map((id) => counts.get(id) ?? empty());
}
