import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import type { Release } from '../releases/index.ts';
import { Delivery } from './delivery.entity.ts';
import type { SkippedStore, TakedownResult } from './distributor.ts';
import { addStep, settleJob } from './job.ts';
import { lockSubmittedRelease } from './lock-release.ts';
import { ReleaseJob } from './release-job.entity.ts';
import { scheduleAdvance } from './schedule.ts';
import { statusTextOf } from './status-text.ts';
import type { StoreAdapters } from './store-adapters.ts';
import { earliestStep, inTransaction } from './transaction.ts';

const TAKEABLE = new Set(['queued', 'in_inspection', 'delivered', 'live']);

/**
 * The core of POST /releases/{id}/takedown: asks the stores to remove the release. Nothing is sent
 * now; each store confirms at a later step (and only then do events go out). A takedown cannot be
 * un-requested. Stores without the release come back in `skipped`.
 */
export async function requestTakedown(
  em: EntityManager,
  target: Release,
  storeIds: readonly number[] | 'all',
  clock: Clock,
  adapters: StoreAdapters,
): Promise<TakedownResult> {
  return inTransaction(em, async (tem) => {
    const release = await lockSubmittedRelease(tem, target.id);
    const now = clock.now();
    const deliveries = await tem.find(Delivery, { release: release.id }, { refresh: true });
    const wanted =
      storeIds === 'all'
        ? deliveries.filter((d) => TAKEABLE.has(d.status)).map((d) => d.storeId)
        : [...new Set(storeIds)];
    const requested: number[] = [];
    const skipped: SkippedStore[] = [];
    for (const storeId of wanted.sort((a, b) => a - b)) {
      const delivery = deliveries.find((d) => d.storeId === storeId);
      if (!delivery || !TAKEABLE.has(delivery.status)) {
        const reason =
          delivery?.status === 'takedown_requested'
            ? 'takedown_pending'
            : delivery?.status === 'taken_down'
              ? 'already_taken_down'
              : 'not_delivered';
        skipped.push({ storeId, reason });
        continue;
      }
      delivery.statusBeforeTakedown = delivery.status;
      delivery.status = 'takedown_requested';
      delivery.statusText = statusTextOf('takedown_requested');
      delivery.urlInStore = null;
      delivery.nextStepAt = adapters.forStore(storeId).firstStepAt(now);
      requested.push(storeId);
    }
    const job = await tem.findOne(ReleaseJob, { release: release.id }, { refresh: true });
    if (job && requested.length > 0) {
      addStep(
        job,
        { name: 'takedown.requested', status: 'completed', detail: `stores ${requested.join(', ')}` },
        now,
      );
      settleJob(job, deliveries);
    }
    await tem.flush();
    const dueAt = earliestStep(deliveries.filter((d) => requested.includes(d.storeId)));
    if (dueAt) await scheduleAdvance(tem, release.id, dueAt);
    return { requested, skipped };
  });
}
