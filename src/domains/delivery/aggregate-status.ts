import type { AggregateStatus } from '../releases/index.ts';
import type { DeliveryStatus } from './delivery.entity.ts';

export interface DeliveryState {
  status: DeliveryStatus;
  addedAfterDistribution: boolean;
  statusBeforeTakedown?: DeliveryStatus | null;
}

const FORWARD_RANK: Partial<Record<DeliveryStatus, number>> = {
  queued: 0,
  in_inspection: 1,
  delivered: 2,
  live: 3,
};

/**
 * The release's aggregate status from its stores, first matching row wins:
 *
 * | # | Stores                                                   | Aggregate     |
 * |---|----------------------------------------------------------|---------------|
 * | 1 | no deliveries at all                                     | `queued`      |
 * | 2 | every store rejected or failed                           | `pending`     |
 * | 3 | nothing counted yet (only added stores still in flight)  | `pending`     |
 * | 4 | every counted store taken down                           | `taken_down`  |
 * | 5 | every remaining store queued                             | `queued`      |
 * | 6 | every remaining store live                               | `distributed` |
 * | 7 | every remaining store delivered or live                  | `delivered`   |
 * | 8 | otherwise (some store in inspection, or in inspection    | `pending`     |
 * |   | or beyond mixed with queued ones)                        |               |
 *
 * Exclusions: rejected and failed stores never count; a store added after distribution counts only
 * once it is live (until then the aggregate stays put and the store reports on its own); a store
 * whose takedown is pending counts as the status it had when the takedown was requested (a pending
 * takedown moves nothing); "remaining" = counted stores that are not taken down.
 */
export function aggregateOf(deliveries: readonly DeliveryState[]): AggregateStatus {
  if (deliveries.length === 0) return 'queued';
  const active = deliveries.filter((d) => d.status !== 'rejected' && d.status !== 'failed');
  if (active.length === 0) return 'pending';
  const effective = active.map((d) =>
    d.status === 'takedown_requested' ? { ...d, status: d.statusBeforeTakedown ?? 'live' } : d,
  );
  const counted = effective.filter(
    (d) => !d.addedAfterDistribution || d.status === 'live' || d.status === 'taken_down',
  );
  const remaining = counted.filter((d) => d.status !== 'taken_down');
  if (counted.length === 0) return 'pending';
  if (remaining.length === 0) return 'taken_down';
  const ranks = remaining.map((d) => FORWARD_RANK[d.status] ?? 0);
  const lowest = Math.min(...ranks);
  if (lowest === 3) return 'distributed';
  if (lowest === 2) return 'delivered';
  if (Math.max(...ranks) === 0) return 'queued';
  return 'pending';
}
