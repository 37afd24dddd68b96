import {
  type Distributor,
  DistributorOfflineError,
  type RecordedDelivery,
  type ReleaseDeliveryStatus,
} from './distributor.ts';
import { recordedStatuses } from './recorded-delivery.ts';

/**
 * The live read: the rows, which every adapter keeps up to date at its steps, unless an adapter of the
 * release's stores is out.
 */
export function deliveryStatus(recorded: RecordedDelivery): ReleaseDeliveryStatus {
  if (recorded.outage !== null) throw new DistributorOfflineError(recorded.outage);
  return recordedStatuses(recorded);
}

/**
 * GET /releases/{id}/status: per-store statuses and the aggregate, from the distributor; when it
 * cannot be reached, the last known statuses with `fallback: true` and the reason.
 */
export async function storeStatuses(
  recorded: RecordedDelivery,
  distributor: Pick<Distributor, 'status'>,
): Promise<ReleaseDeliveryStatus> {
  try {
    return await distributor.status(recorded);
  } catch (error) {
    if (!(error instanceof DistributorOfflineError)) throw error;
    return { ...recordedStatuses(recorded), fallback: true, fallbackReason: error.reason };
  }
}
