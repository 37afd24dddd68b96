import type { SkippedStore } from '../distributor.ts';
import { storeNameOf } from '../status-text.ts';

/** A store an operation did not act on, and why (`partner_approval_required`, `already_delivered`, …). */
export interface SkippedStoreView {
  storeId: number;
  storeName: string;
  reason: string;
}

export function skippedView(skipped: SkippedStore): SkippedStoreView {
  return { storeId: skipped.storeId, storeName: storeNameOf(skipped.storeId), reason: skipped.reason };
}
