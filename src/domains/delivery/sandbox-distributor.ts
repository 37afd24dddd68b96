import type { EntityManager } from '@mikro-orm/postgresql';
import type { Release } from '../releases/release.entity.ts';
import { addStores } from './add-stores.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Distributor } from './distributor.ts';
import type { EligibilityOptions } from './eligibility.ts';
import { enqueueRelease } from './enqueue-release.ts';
import { ReleaseJob } from './release-job.entity.ts';
import { requestTakedown } from './request-takedown.ts';
import { sandboxStatus } from './store-statuses.ts';

export { addStores } from './add-stores.ts';
export { advanceDue, advanceRelease } from './advance-due.ts';
export type { Distributor } from './distributor.ts';
export { DistributorOfflineError } from './distributor.ts';
export { enqueueRelease } from './enqueue-release.ts';
export { requestTakedown } from './request-takedown.ts';
export { instructSandbox, setSandboxOffline } from './sandbox-control.ts';
export { storeStatuses } from './store-statuses.ts';

export interface SandboxOptions extends EligibilityOptions {
  clock?: Clock;
  /** Seconds per store step (SANDBOX_STEP_SECONDS). */
  stepSeconds: number;
}

/**
 * The sandbox behind the Distributor port, bound to one EntityManager (a request's). It keeps its
 * whole state in rows (deliveries, release_jobs, sandbox_controls); `advanceRelease` moves a release on
 * when its job wakes it (see schedule.ts).
 */
export function sandboxDistributor(em: EntityManager, options: SandboxOptions): Distributor {
  const clock = options.clock ?? systemClock;
  return {
    async deliver(release: Release, storeIds: readonly number[]) {
      const job = await em.findOne(ReleaseJob, { release: release.id });
      if (!job) {
        const { queued, skipped } = await enqueueRelease(em, release, clock, options.stepSeconds, {
          ...options,
          storeIds,
        });
        return { queued, skipped };
      }
      return addStores(em, release, storeIds, clock, options.stepSeconds, options);
    },
    takedown: (release, storeIds) => requestTakedown(em, release, storeIds, clock, options.stepSeconds),
    status: (release) => sandboxStatus(em, release),
  };
}
