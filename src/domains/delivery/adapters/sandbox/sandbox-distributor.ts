import type { Release } from '../../../releases/release.entity.ts';
import { addStores } from '../../add-stores.ts';
import { type Clock, systemClock } from '../../clock.ts';
import type { Distributor } from '../../distributor.ts';
import { enqueueRelease } from '../../enqueue-release.ts';
import { requestTakedown } from '../../request-takedown.ts';
import { sandboxStatus } from '../../store-statuses.ts';

export { addStores } from '../../add-stores.ts';
export { advanceDue, advanceRelease } from '../../advance-due.ts';
export type { Distributor } from '../../distributor.ts';
export { DistributorOfflineError } from '../../distributor.ts';
export { enqueueRelease } from '../../enqueue-release.ts';
export { requestTakedown } from '../../request-takedown.ts';
export { storeStatuses } from '../../store-statuses.ts';
export { instructSandbox, setSandboxOffline } from './sandbox-control.ts';

export interface SandboxOptions {
  clock?: Clock;
  /** Seconds per store step (SANDBOX_STEP_SECONDS). */
  stepSeconds: number;
}

/** The release's stored UGC policy choices, applied to the stores it is delivered to. */
const ugcPoliciesOf = (release: Release) => ({ ugcPolicies: release.ugcPolicies ?? {} });

/**
 * The sandbox adapter of the Distributor port: it behaves like a real distributor (ERN messages per
 * store, queued → in inspection → delivered → live on its clock, takedowns confirmed, failures and
 * outages on request) and keeps its whole state in rows (deliveries, release_jobs, sandbox_controls);
 * the delivery job (`advanceRelease`) moves a release on when it wakes (see schedule.ts).
 */
export function createSandboxDistributor(options: SandboxOptions): Distributor {
  const clock = options.clock ?? systemClock;
  return {
    async deliver(em, release, at, tracks) {
      const { queued, skipped } = await enqueueRelease(em, release, { now: () => at }, options.stepSeconds, {
        ...ugcPoliciesOf(release),
        tracks,
      });
      return { queued, skipped };
    },
    addStores: (em, release, storeIds) =>
      addStores(em, release, storeIds, clock, options.stepSeconds, ugcPoliciesOf(release)),
    takedown: (em, release, storeIds) => requestTakedown(em, release, storeIds, clock, options.stepSeconds),
    status: async (recorded) => sandboxStatus(recorded),
  };
}
