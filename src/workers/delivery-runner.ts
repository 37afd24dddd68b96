import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobResult, PgBoss } from 'pg-boss';
import {
  ADVANCE_QUEUE,
  type AdvanceJobData,
  advanceRelease,
  resumeDeliveries,
  runStoreWork,
  type StoreAdapters,
  type StoreWorkData,
  WORK_QUEUE,
} from '../domains/delivery/index.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import { reportFailure } from '../platform/db/report-failure.ts';
import type { Logger } from '../platform/logger.ts';

/** How often a running worker re-sends the wake-ups the rows call for (see `resumeDeliveries`). */
const RESUME_EVERY_SECONDS = 60;

/**
 * Works the store-delivery jobs: each wakes one release at a due step (`advanceRelease`). Any number
 * of processes may run this; a start, and then every minute, re-sends from the rows
 * (`resumeDeliveries`), so a release whose job exhausted its retries (a long database outage) moves
 * again without waiting for a restart.
 *
 * pg-boss's shortest poll (0.5 s) bounds how late a step runs, since a job due later is not announced
 * when it becomes due (NOTIFY only wakes workers for a job that is due when sent). A full batch is
 * followed by another fetch at once; batches run one job at a time, two per process. When an adapter
 * does slow work (`StoreAdapter.work`), its work jobs run here too, apart from the steps, so an upload
 * of minutes never holds a step back.
 */
export async function startDeliveryRunner(deps: {
  boss: PgBoss;
  em: () => EntityManager;
  logger: Logger;
  adapters: StoreAdapters;
  clock?: Clock;
  resumeEverySeconds?: number;
}): Promise<() => Promise<void>> {
  const clock = deps.clock ?? systemClock;
  const resumed = await resumeDeliveries(deps.em());
  if (resumed > 0) deps.logger.info({ releases: resumed }, 'delivery resumed');
  const resumer = setInterval(
    () => resumeDeliveries(deps.em()).catch((err) => reportFailure(deps.logger, err, 'delivery resume')),
    (deps.resumeEverySeconds ?? RESUME_EVERY_SECONDS) * 1000,
  );
  const handle = async (jobs: { id: string; data: AdvanceJobData }[]): Promise<JobResult[]> => {
    const results: JobResult[] = [];
    for (const job of jobs) {
      try {
        await advanceRelease(deps.em(), job.data.releaseId, clock, deps.adapters);
        results.push({ id: job.id, status: 'completed' });
      } catch (err) {
        reportFailure(deps.logger, err, 'delivery step failed (will retry)', {
          releaseId: job.data.releaseId,
        });
        results.push({ id: job.id, status: 'failed', output: { message: (err as Error).message } });
      }
    }
    return results;
  };
  await deps.boss.work<AdvanceJobData>(
    ADVANCE_QUEUE,
    {
      batchSize: 10,
      burstWhenBatchFull: true,
      perJobResults: true,
      localConcurrency: 2,
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 0.5,
    },
    handle,
  );
  // Adapters' slow work, two stores' at a time per process, only when an adapter has any. A job at a
  // time per fetch, so pg-boss's burst mode does not apply; without the short notify poll a backlog
  // (jobs queued while both slots were busy, no new NOTIFY to wake them) drained one job per slot
  // every 30 s.
  const working = deps.adapters.all.some((adapter) => adapter.work);
  if (working) {
    await deps.boss.work<StoreWorkData>(
      WORK_QUEUE,
      { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 0.5 },
      async ([job]) => {
        if (job) await runStoreWork(deps.em(), deps.adapters, job.data, clock, job.signal);
      },
    );
  }
  return async () => {
    clearInterval(resumer);
    await deps.boss.offWork(ADVANCE_QUEUE, { wait: true });
    if (working) await deps.boss.offWork(WORK_QUEUE, { wait: true });
  };
}
