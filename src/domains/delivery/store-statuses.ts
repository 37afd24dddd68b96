import type { EntityManager } from '@mikro-orm/postgresql';
import type { Release } from '../releases/release.entity.ts';
import { Delivery } from './delivery.entity.ts';
import { type Distributor, DistributorOfflineError, type ReleaseDeliveryStatus } from './distributor.ts';
import { ReleaseJob } from './release-job.entity.ts';
import { readControl } from './sandbox-control.ts';
import { storeNameOf } from './status-text.ts';

/**
 * The statuses as the rows hold them: the queued response (`queued`, pending) until the distributor
 * has the release — no job yet, or a job none of whose stores has moved.
 */
export async function recordedStatuses(em: EntityManager, release: Release): Promise<ReleaseDeliveryStatus> {
  const [job, deliveries] = await Promise.all([
    em.findOne(ReleaseJob, { release: release.id }, { refresh: true }),
    em.find(Delivery, { release: release.id }, { orderBy: { storeId: 'asc' }, refresh: true }),
  ]);
  const stores = deliveries.map((d) => ({
    storeId: d.storeId,
    storeName: storeNameOf(d.storeId),
    status: d.status,
    statusText: d.statusText,
    urlInStore: d.status === 'live' ? (d.urlInStore ?? null) : null,
  }));
  if (!job || job.state === 'queued') return { aggregateStatus: 'queued', pending: true, stores };
  return { aggregateStatus: release.aggregateStatus ?? 'queued', pending: false, stores };
}

/** The sandbox's live read: the rows, unless the sandbox was switched offline. */
export async function sandboxStatus(em: EntityManager, release: Release): Promise<ReleaseDeliveryStatus> {
  const control = await readControl(em);
  if (control?.offline) throw new DistributorOfflineError(control.offlineReason ?? 'unreachable');
  return recordedStatuses(em, release);
}

/**
 * GET /releases/{id}/status: per-store statuses and the aggregate, from the distributor; when it
 * cannot be reached, the last known statuses with `fallback: true` and the reason.
 */
export async function storeStatuses(
  em: EntityManager,
  release: Release,
  distributor: Pick<Distributor, 'status'>,
): Promise<ReleaseDeliveryStatus> {
  try {
    return await distributor.status(em, release);
  } catch (error) {
    if (!(error instanceof DistributorOfflineError)) throw error;
    return { ...(await recordedStatuses(em, release)), fallback: true, fallbackReason: error.reason };
  }
}
