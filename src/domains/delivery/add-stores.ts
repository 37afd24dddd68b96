import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { forbidden } from '../../platform/errors.ts';
import { findStore } from '../catalog/index.ts';
import type { Release } from '../releases/index.ts';
import { Delivery } from './delivery.entity.ts';
import type { QueueResult, SkippedStore } from './distributor.ts';
import { type EligibilityOptions, eligibilityFor } from './eligibility.ts';
import { emitStoresAdded } from './events.ts';
import { addStep, settleJob } from './job.ts';
import { lockSubmittedRelease } from './lock-release.ts';
import { queuedDeliveryFields } from './queued-delivery.ts';
import { ReleaseJob } from './release-job.entity.ts';
import { scheduleAdvance } from './schedule.ts';
import { storeNameOf } from './status-text.ts';
import type { StoreAdapters } from './store-adapters.ts';
import { earliestStep, inTransaction } from './transaction.ts';

/** Stores that still have (or are getting) the release; any other past delivery may be redone. */
const ACTIVE = new Set(['queued', 'in_inspection', 'delivered', 'live', 'takedown_requested']);

/**
 * The core of POST /releases/{id}/distribute: queues the release for more stores without
 * re-uploading. Stores it cannot go to come back in `skipped` with a reason; the queued ones stay out
 * of the aggregate until live and report on their own (`release.stores_added` now, an equal-status
 * `release.status_changed` when each finishes delivery).
 */
export async function addStores(
  em: EntityManager,
  target: Release,
  storeIds: readonly number[],
  clock: Clock,
  adapters: StoreAdapters,
  options: EligibilityOptions = {},
): Promise<QueueResult> {
  const unknown = storeIds.filter((id) => !findStore(id));
  if (unknown.length > 0) {
    throw forbidden(
      `Store(s) ${unknown.join(', ')} are not available for this account.`,
      'store_not_available',
    );
  }
  return inTransaction(em, async (tem) => {
    const release = await lockSubmittedRelease(tem, target.id);
    const now = clock.now();
    const existing = await tem.find(Delivery, { release: release.id }, { refresh: true });
    const job =
      (await tem.findOne(ReleaseJob, { release: release.id }, { refresh: true })) ??
      tem.create(ReleaseJob, { release, state: 'queued', steps: [], errors: [] });
    const queued: Delivery[] = [];
    const skipped: SkippedStore[] = [];
    for (const storeId of [...new Set(storeIds)].sort((a, b) => a - b)) {
      const store = findStore(storeId)!;
      const current = existing.find((d) => d.storeId === storeId);
      if (current && ACTIVE.has(current.status)) {
        skipped.push({
          storeId,
          reason: current.status === 'takedown_requested' ? 'takedown_pending' : 'already_delivered',
        });
        continue;
      }
      const eligibility = eligibilityFor(store, options);
      if (!eligibility.ok) {
        skipped.push({ storeId, reason: eligibility.reason });
        continue;
      }
      const fields = queuedDeliveryFields(
        { storeId, ugcPolicy: eligibility.ugcPolicy, addedAfterDistribution: true },
        now,
        adapters,
      );
      const delivery = current
        ? Object.assign(current, fields)
        : tem.create(Delivery, { release, storeId, ...fields });
      queued.push(delivery);
    }
    for (const s of skipped) {
      addStep(
        job,
        {
          name: 'store.skipped',
          status: 'skipped',
          detail: `${storeNameOf(s.storeId)}: ${s.reason}`,
          storeId: s.storeId,
        },
        now,
      );
    }
    if (queued.length > 0) {
      addStep(
        job,
        {
          name: 'stores.added',
          status: 'completed',
          detail: `queued ${queued.map((d) => d.storeId).join(', ')}`,
        },
        now,
      );
      const all = [...existing.filter((d) => !queued.includes(d)), ...queued];
      settleJob(job, all);
      await tem.flush();
      await emitStoresAdded(tem, release, queued, skipped, now);
      await scheduleAdvance(tem, release.id, earliestStep(queued)!);
    }
    await tem.flush();
    return { queued: queued.map((d) => d.storeId), skipped };
  });
}
