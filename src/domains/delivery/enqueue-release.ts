import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { DEFAULT_STORE_IDS, findStore } from '../catalog/index.ts';
import { Release, type ReleaseTrack } from '../releases/index.ts';
import { Delivery } from './delivery.entity.ts';
import type { QueueResult, SkippedStore } from './distributor.ts';
import { type EligibilityOptions, eligibilityFor } from './eligibility.ts';
import { addError, addStep, settleJob } from './job.ts';
import { queuedDeliveryFields } from './queued-delivery.ts';
import { assignIdentifiers, tracksOf } from './release-content.ts';
import { ReleaseJob } from './release-job.entity.ts';
import { scheduleAdvance } from './schedule.ts';
import { storeNameOf } from './status-text.ts';
import type { StoreAdapters } from './store-adapters.ts';
import { earliestStep, inTransaction } from './transaction.ts';

export interface EnqueueResult extends QueueResult {
  job: ReleaseJob;
  /** False when the release already had its job (a retry): nothing new was created. */
  created: boolean;
}

export interface EnqueueOptions extends EligibilityOptions {
  storeIds?: readonly number[];
  /**
   * The tracks of a release the caller's transaction is submitting right now, not written yet: a first
   * hand-over (no job to look for), and its rows, identifiers included, go out in one flush.
   */
  tracks?: readonly ReleaseTrack[];
}

/**
 * Hands a submitted release to delivery: its background job and one queued delivery per selected
 * store (null selection = the default stores), due when the store's adapter takes its first step.
 * UPC and ISRCs are assigned here when the submission had none; what a store is sent (its ERN message)
 * is its adapter's business, at that first step. Idempotent per release.
 */
export async function enqueueRelease(
  em: EntityManager,
  submitted: Release,
  clock: Clock,
  adapters: StoreAdapters,
  options: EnqueueOptions = {},
): Promise<EnqueueResult> {
  return inTransaction(em, async (tem) => {
    // In the caller's transaction the release is the caller's own (maybe not yet flushed) entity.
    const release = tem === em ? submitted : await tem.findOneOrFail(Release, submitted.id);
    const existing = options.tracks ? null : await tem.findOne(ReleaseJob, { release: release.id });
    if (existing) {
      const deliveries = await tem.find(Delivery, { release: release.id });
      return { job: existing, created: false, queued: deliveries.map((d) => d.storeId), skipped: [] };
    }
    const now = clock.now();
    const job = tem.create(ReleaseJob, { release, state: 'queued', steps: [], errors: [] });
    const selected = [...new Set(options.storeIds ?? release.distributionStoreIds ?? DEFAULT_STORE_IDS)];
    assignIdentifiers(release, options.tracks ?? (await tracksOf(tem, release)));
    const queued: Delivery[] = [];
    const skipped: SkippedStore[] = [];
    for (const storeId of selected.sort((a, b) => a - b)) {
      const store = findStore(storeId);
      const eligibility = store ? eligibilityFor(store, options) : null;
      if (!eligibility?.ok) {
        const reason = eligibility?.reason ?? 'not_delivered';
        skipped.push({ storeId, reason });
        addStep(
          job,
          { name: 'store.skipped', status: 'skipped', detail: `${storeNameOf(storeId)}: ${reason}`, storeId },
          now,
        );
        addError(
          job,
          { code: reason, message: `${storeNameOf(storeId)} was skipped: ${reason}.`, storeId },
          now,
        );
        continue;
      }
      const fields = queuedDeliveryFields(
        { storeId, ugcPolicy: eligibility.ugcPolicy, addedAfterDistribution: false },
        now,
        adapters,
      );
      queued.push(tem.create(Delivery, { release, storeId, ...fields }));
    }
    addStep(
      job,
      {
        name: 'release.enqueued',
        status: 'completed',
        detail: `UPC ${release.upc}; ${queued.length} store(s) queued, ${skipped.length} skipped`,
      },
      now,
    );
    release.aggregateStatus ??= 'queued';
    settleJob(job, queued);
    await tem.flush();
    const dueAt = earliestStep(queued);
    if (dueAt) await scheduleAdvance(tem, release.id, dueAt);
    return { job, created: true, queued: queued.map((d) => d.storeId), skipped };
  });
}
