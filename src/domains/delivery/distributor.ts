import type { EntityManager } from '@mikro-orm/postgresql';
import type { AggregateStatus, Release } from '../releases/index.ts';
import type { DeliveryStatus } from './delivery.entity.ts';
import type { JobState } from './release-job.entity.ts';

/** The distributor cannot be reached: status reads fall back to the last known statuses. */
export class DistributorOfflineError extends Error {
  override name = 'DistributorOfflineError';
  readonly reason: string;

  constructor(reason: string) {
    super(`The distributor is offline: ${reason}`);
    this.reason = reason;
  }
}

export const SKIP_REASONS = [
  'partner_approval_required',
  'ugc_policy_unresolvable',
  'already_delivered',
  'not_delivered',
  'takedown_pending',
  'already_taken_down',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkippedStore {
  storeId: number;
  reason: SkipReason;
}

export interface QueueResult {
  queued: number[];
  skipped: SkippedStore[];
}

export interface TakedownResult {
  requested: number[];
  skipped: SkippedStore[];
}

export interface StoreStatus {
  storeId: number;
  storeName: string;
  status: DeliveryStatus;
  statusText: string;
  urlInStore: string | null;
}

export interface ReleaseDeliveryStatus {
  aggregateStatus: AggregateStatus;
  /** True until the distributor has the release (queued response). */
  pending: boolean;
  stores: StoreStatus[];
  /** Present (true) when the distributor could not be asked and these are the last known statuses. */
  fallback?: boolean;
  fallbackReason?: string;
}

/** What the rows say of a release's delivery: the status read's whole input, read in one statement. */
export interface RecordedDelivery {
  releaseId: string;
  accountId: string;
  aggregateStatus: AggregateStatus | null;
  /** The release job's state; null before submission. */
  jobState: JobState | null;
  stores: StoreStatus[];
  /** Why an adapter of the release's stores cannot be reached (any adapter before it has stores); null while all can. */
  outage: string | null;
}

/**
 * The Distributor port: what Tributary asks of whoever delivers releases to stores. One service of the
 * application (AppServices.distributor), chosen by configuration: by default the delivery core over
 * per-store adapters (delivery-distributor.ts).
 * Every call runs on the caller's EntityManager, inside its transaction when there is one, so what a
 * distributor records (delivery rows, jobs, events) commits or rolls back with the request.
 */
export interface Distributor {
  /**
   * Hands over a release just submitted, for its target stores (the release's selection), in the
   * submission's transaction: the release and its tracks are written (with their UPC and ISRCs), and
   * what the distributor records commits with them. Called once per release, at its submission. The
   * release is read, not changed: it is not managed by the EntityManager (a change would not be
   * written), and what the distributor records it writes in rows of its own.
   */
  deliver(em: EntityManager, release: Readonly<Release>, at: Date): Promise<QueueResult>;
  /** More stores for a release already handed over. */
  addStores(em: EntityManager, release: Release, storeIds: readonly number[]): Promise<QueueResult>;
  takedown(em: EntityManager, release: Release, storeIds: readonly number[] | 'all'): Promise<TakedownResult>;
  /**
   * Live statuses of a release, given what the rows record of it (read in one statement by the caller);
   * throws DistributorOfflineError when the distributor cannot be reached.
   */
  status(recorded: RecordedDelivery): Promise<ReleaseDeliveryStatus>;
}
