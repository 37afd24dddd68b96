import { statusTextOf } from './status-text.ts';
import type { StoreAdapters } from './store-adapters.ts';

export interface QueuedDeliveryInput {
  storeId: number;
  /** The UGC policy the store applies (from its eligibility). */
  ugcPolicy: string | null;
  /** Queued by a distribute after submission (kept out of the aggregate until live). */
  addedAfterDistribution: boolean;
}

/**
 * A store's delivery in state queued, due when the store's adapter takes its first step: the fields of a
 * new delivery row, or of a past one queued again (whatever it held before is cleared).
 */
export function queuedDeliveryFields(input: QueuedDeliveryInput, now: Date, adapters: StoreAdapters) {
  return {
    status: 'queued' as const,
    statusText: statusTextOf('queued'),
    urlInStore: null,
    reason: null,
    nextStepAt: adapters.forStore(input.storeId).firstStepAt(now),
    ugcPolicy: input.ugcPolicy,
    // Built anew when the store is sent the release (its first step).
    ddexMessage: null,
    addedAfterDistribution: input.addedAfterDistribution,
    statusBeforeTakedown: null,
  };
}
