import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../platform/clock.ts';
import { insertTogether, rowsOf } from '../../platform/db/direct-sql.ts';
import { DEFAULT_STORE_IDS, findStore } from '../catalog/index.ts';
import { Release } from '../releases/index.ts';
import { Delivery } from './delivery.entity.ts';
import type { QueueResult, SkippedStore } from './distributor.ts';
import { type EligibilityOptions, eligibilityFor } from './eligibility.ts';
import { addError, addStep, settleJob } from './job.ts';
import { queuedDeliveryFields } from './queued-delivery.ts';
import { assignIdentifiers, tracksOf } from './release-content.ts';
import { type JobState, ReleaseJob } from './release-job.entity.ts';
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
}

/** What a first hand-over records: the job and one queued delivery per eligible store. */
interface HandOverPlan {
  job: Pick<ReleaseJob, 'state' | 'steps' | 'errors'>;
  deliveries: (ReturnType<typeof queuedDeliveryFields> & { storeId: number })[];
  skipped: SkippedStore[];
}

/**
 * The job and deliveries of a release's first hand-over, as values: one queued delivery per selected
 * store (null selection = the default stores) that may have it, due when the store's adapter takes its
 * first step; a skipped store is a step and an error of the job.
 */
function handOverPlan(
  release: Release,
  now: Date,
  adapters: StoreAdapters,
  options: EnqueueOptions,
): HandOverPlan {
  const job: HandOverPlan['job'] = { state: 'queued' as JobState, steps: [], errors: [] };
  const selected = [...new Set(options.storeIds ?? release.distributionStoreIds ?? DEFAULT_STORE_IDS)];
  const deliveries: HandOverPlan['deliveries'] = [];
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
    deliveries.push({ storeId, ...fields });
  }
  addStep(
    job,
    {
      name: 'release.enqueued',
      status: 'completed',
      detail: `UPC ${release.upc}; ${deliveries.length} store(s) queued, ${skipped.length} skipped`,
    },
    now,
  );
  settleJob(job, deliveries);
  return { job, deliveries, skipped };
}

/**
 * Hands a submitted release to delivery: its background job and one queued delivery per selected
 * store, due when the store's adapter takes its first step. UPC and ISRCs are assigned here when the
 * release has none; what a store is sent (its ERN message) is its adapter's business, at that first
 * step. Idempotent per release. A submission hands over with `enqueueSubmitted` instead.
 */
export async function enqueueRelease(
  em: EntityManager,
  submitted: Release,
  clock: Clock,
  adapters: StoreAdapters,
  options: EnqueueOptions = {},
): Promise<EnqueueResult> {
  return inTransaction(em, async (tem) => {
    // In the caller's transaction the release is the caller's own entity.
    const release = tem === em ? submitted : await tem.findOneOrFail(Release, submitted.id);
    const existing = await tem.findOne(ReleaseJob, { release: release.id });
    if (existing) {
      const deliveries = await tem.find(Delivery, { release: release.id });
      return { job: existing, created: false, queued: deliveries.map((d) => d.storeId), skipped: [] };
    }
    assignIdentifiers(release, await tracksOf(tem, release));
    const plan = handOverPlan(release, clock.now(), adapters, options);
    const job = tem.create(ReleaseJob, { release, ...plan.job });
    const queued = plan.deliveries.map((fields) => tem.create(Delivery, { release, ...fields }));
    release.aggregateStatus ??= 'queued';
    await tem.flush();
    const dueAt = earliestStep(queued);
    if (dueAt) await scheduleAdvance(tem, release.id, dueAt);
    return { job, created: true, queued: queued.map((d) => d.storeId), skipped: plan.skipped };
  });
}

/**
 * The hand-over of a release its submission has just written, in the submission's transaction (the
 * release and its tracks are in, with their UPC and ISRCs): the same job and deliveries as
 * `enqueueRelease`, written directly (the deliveries and the job in one statement, no unit of work to
 * compute), then the wake-up job.
 */
export async function enqueueSubmitted(
  em: EntityManager,
  release: Readonly<Release>,
  at: Date,
  adapters: StoreAdapters,
  options: EligibilityOptions = {},
): Promise<QueueResult> {
  if (!em.isInTransaction()) throw new Error('enqueueSubmitted runs in the submission’s transaction');
  const plan = handOverPlan(release, at, adapters, options);
  await insertTogether(em, [
    rowsOf(
      Delivery,
      plan.deliveries.map((fields) => ({ release: release.id, ...fields })),
    ),
    rowsOf(ReleaseJob, [{ release: release.id, ...plan.job }]),
  ]);
  const dueAt = earliestStep(plan.deliveries);
  if (dueAt) await scheduleAdvance(em, release.id, dueAt);
  return { queued: plan.deliveries.map((d) => d.storeId), skipped: plan.skipped };
}
