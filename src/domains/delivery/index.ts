export { advanceRelease } from './advance-release.ts';
export { createDeliveryDistributor } from './delivery-distributor.ts';
export { type Distributor, SKIP_REASONS, type SkipReason } from './distributor.ts';
export {
  type ApprovedPayload,
  type EventStoreStatus,
  RELEASE_EVENT_TYPES,
  type ReleaseEventHead,
  type ReleaseEventType,
  type StatusChangedPayload,
  type StoresAddedPayload,
  type TakedownCompletedPayload,
} from './events.ts';
export { indexLiveRelease, unindexedLiveReleases } from './index-live-release.ts';
export {
  type DistributeResult,
  distributeToStores,
  getUgcPolicies,
  type SkippedStoreView,
  setTargetStores,
  setUgcPolicies,
  type TakedownStoresResult,
  type TargetStoresResult,
  takedownStores,
  type UgcPoliciesResult,
  type UgcPolicyView,
} from './operations/index.ts';
export { type ReleaseJobView, readReleaseJob } from './read-job.ts';
export { JOB_STATES, JOB_STEP_STATUSES } from './release-job.entity.ts';
export { resumeDeliveries } from './resume.ts';
export {
  ADVANCE_QUEUE,
  type AdvanceJobData,
  advanceQueue,
  type StoreWorkData,
  WORK_QUEUE,
  workQueue,
} from './schedule.ts';
export { ReleaseStatusCache } from './status-cache.ts';
export type { StoreAdapter } from './store-adapter.ts';
export { type StoreAdapters, storeAdapters } from './store-adapters.ts';
export { type StoreCounts, storeCountsOf } from './store-counts.ts';
export { storeStatuses } from './store-statuses.ts';
export { runStoreWork } from './store-work.ts';
