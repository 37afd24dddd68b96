import { type Clock, systemClock } from '../../platform/clock.ts';
import type { Release } from '../releases/index.ts';
import { addStores } from './add-stores.ts';
import type { Distributor } from './distributor.ts';
import { enqueueSubmitted } from './enqueue-release.ts';
import { requestTakedown } from './request-takedown.ts';
import type { StoreAdapters } from './store-adapters.ts';
import { deliveryStatus } from './store-statuses.ts';

/** The release's stored UGC policy choices, applied to the stores it is delivered to. */
const ugcPoliciesOf = (release: Release) => ({ ugcPolicies: release.ugcPolicies ?? {} });

/**
 * The Distributor port as Tributary implements it: the delivery core keeps each store's delivery in
 * rows (deliveries, release_jobs) and moves it through its store's adapter, chosen per store by
 * `adapters`; the delivery job (`advanceRelease`) steps a release when it wakes (see schedule.ts).
 */
export function createDeliveryDistributor(options: { adapters: StoreAdapters; clock?: Clock }): Distributor {
  const { adapters } = options;
  const clock = options.clock ?? systemClock;
  return {
    deliver: (em, release, at) => enqueueSubmitted(em, release, at, adapters, ugcPoliciesOf(release)),
    addStores: (em, release, storeIds) =>
      addStores(em, release, storeIds, clock, adapters, ugcPoliciesOf(release)),
    takedown: (em, release, storeIds) => requestTakedown(em, release, storeIds, clock, adapters),
    status: async (recorded) => deliveryStatus(recorded),
  };
}
