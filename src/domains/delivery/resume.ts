import type { EntityManager } from '@mikro-orm/postgresql';
import { markCacheNeutral } from '../../platform/db/cache-neutral.ts';
import { insertInTransaction } from '../../platform/jobs/index.ts';
import { ADVANCE_QUEUE, type AdvanceJobData, advanceJobKey } from './schedule.ts';

/**
 * Sends a wake-up for every release with a scheduled step, at its earliest one (a worker does this
 * when it starts). Releases scheduled before jobs existed, or whose job exhausted its retries, move
 * again; a release whose job is still queued gets no second one (same key). Not a second schedule:
 * the job only wakes the release, its rows decide what moves. It writes only jobs, so its commit
 * (once a minute in every worker) keeps the read caches.
 */
export async function resumeDeliveries(em: EntityManager): Promise<number> {
  return em.transactional(async (tem) => {
    markCacheNeutral(tem);
    const rows = await tem.execute<{ release_id: string; due: Date | string }[]>(
      'select release_id, min(next_step_at) as due from deliveries where next_step_at is not null group by release_id',
    );
    await insertInTransaction(
      tem,
      ADVANCE_QUEUE,
      rows.map((row) => {
        const due = new Date(row.due);
        const data: AdvanceJobData = { releaseId: row.release_id };
        return { data, singletonKey: advanceJobKey(row.release_id, due), startAfter: due };
      }),
    );
    return rows.length;
  });
}
